/**
 * Minimum-cost assignment (the Hungarian method with row and column potentials, O(n²·m)) on a
 * rectangular matrix: each row of the smaller side gets a distinct column so that the sum of the
 * chosen costs is the least possible. Used for the tracker's frame-to-frame matching and for the
 * tracking bench's IDF1.
 */

/** The column of each row (-1 for rows left over when there are more rows than columns). */
export function minCostAssignment(cost: readonly (readonly number[])[]): number[] {
  const rows = cost.length;
  const cols = rows ? (cost[0] as readonly number[]).length : 0;
  for (const row of cost) {
    if (row.length !== cols)
      throw new RangeError('every row of the cost matrix needs as many columns');
    if (!row.every(Number.isFinite)) throw new RangeError('costs must be finite numbers');
  }
  if (rows === 0 || cols === 0) return new Array<number>(rows).fill(-1);
  if (rows <= cols)
    return assignRows(rows, cols, (i, j) => (cost[i] as readonly number[])[j] as number);
  // More rows than columns: solve the transpose, then read it back per row.
  const byCol = assignRows(cols, rows, (i, j) => (cost[j] as readonly number[])[i] as number);
  const out = new Array<number>(rows).fill(-1);
  byCol.forEach((row, col) => (out[row] = col));
  return out;
}

/** rows ≤ cols: every row is assigned. `at(i, j)` is 0-based. */
function assignRows(rows: number, cols: number, at: (i: number, j: number) => number): number[] {
  // 1-based with a virtual column 0, which holds the row being inserted.
  const u = new Float64Array(rows + 1);
  const v = new Float64Array(cols + 1);
  const rowOfCol = new Int32Array(cols + 1);
  const previous = new Int32Array(cols + 1);
  const slack = new Float64Array(cols + 1);
  const visited = new Uint8Array(cols + 1);
  for (let i = 1; i <= rows; i++) {
    rowOfCol[0] = i;
    let col = 0;
    slack.fill(Infinity);
    visited.fill(0);
    // Grow a tree of tight edges from row i until it reaches a free column (Dijkstra on reduced costs).
    do {
      visited[col] = 1;
      const row = rowOfCol[col] as number;
      let delta = Infinity;
      let next = 0;
      for (let j = 1; j <= cols; j++) {
        if (visited[j]) continue;
        const reduced = at(row - 1, j - 1) - (u[row] as number) - (v[j] as number);
        if (reduced < (slack[j] as number)) {
          slack[j] = reduced;
          previous[j] = col;
        }
        if ((slack[j] as number) < delta) {
          delta = slack[j] as number;
          next = j;
        }
      }
      for (let j = 0; j <= cols; j++) {
        if (visited[j]) {
          const r = rowOfCol[j] as number;
          u[r] = (u[r] as number) + delta;
          v[j] = (v[j] as number) - delta;
        } else {
          slack[j] = (slack[j] as number) - delta;
        }
      }
      col = next;
    } while (rowOfCol[col] !== 0);
    // Flip the augmenting path back to the virtual column.
    do {
      const prev = previous[col] as number;
      rowOfCol[col] = rowOfCol[prev] as number;
      col = prev;
    } while (col !== 0);
  }
  const out = new Array<number>(rows).fill(-1);
  for (let j = 1; j <= cols; j++) {
    const r = rowOfCol[j] as number;
    if (r > 0) out[r - 1] = j - 1;
  }
  return out;
}
