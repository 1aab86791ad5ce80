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

/**
 * Minimum-cost assignment where only some pairs are allowed (the rest never paired): the column
 * of each row, -1 when it gets none. As the full assignment with refused pairs priced out of
 * reach, but solved per connected group of rows and columns linked by allowed pairs: in a busy
 * frame each box is within reach of a few tracks only, so the groups are small.
 */
export function gatedAssignment(
  cost: readonly (readonly number[])[],
  allowed: (row: number, col: number) => boolean,
): number[] {
  const rows = cost.length;
  const cols = rows ? (cost[0] as readonly number[]).length : 0;
  const out = new Array<number>(rows).fill(-1);
  if (rows * cols <= SMALL) {
    // Few pairs: grouping them would cost more than the assignment itself.
    const all = cost.map((row, r) => row.map((v, c) => (allowed(r, c) ? v : OUT_OF_REACH)));
    minCostAssignment(all).forEach((c, r) => {
      if (c >= 0 && allowed(r, c)) out[r] = c;
    });
    return out;
  }
  // Union-find over rows (0..rows-1) and columns (rows..rows+cols-1).
  const parent = Int32Array.from({ length: rows + cols }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const linked = new Uint8Array(rows + cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!allowed(r, c)) continue;
      parent[find(r)] = find(rows + c);
      linked[r] = 1;
      linked[rows + c] = 1;
    }
  }
  const groups = new Map<number, { rows: number[]; cols: number[] }>();
  for (let i = 0; i < rows + cols; i++) {
    if (!linked[i]) continue;
    const root = find(i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { rows: [], cols: [] }));
    if (i < rows) g.rows.push(i);
    else g.cols.push(i - rows);
  }
  for (const g of groups.values()) {
    if (g.rows.length === 1 || g.cols.length === 1) {
      // One track or one box in reach (most groups): its cheapest allowed pair is the optimum.
      const [r, c] = cheapestPair(cost, g.rows, g.cols, allowed);
      out[r] = c;
      continue;
    }
    const sub = g.rows.map((r) =>
      g.cols.map((c) => (allowed(r, c) ? ((cost[r] as number[])[c] as number) : OUT_OF_REACH)),
    );
    minCostAssignment(sub).forEach((k, i) => {
      const r = g.rows[i] as number;
      const c = g.cols[k] as number;
      if (k >= 0 && allowed(r, c)) out[r] = c;
    });
  }
  return out;
}

/** The allowed pair of least cost among rows × cols (one of them a single index); first on ties. */
function cheapestPair(
  cost: readonly (readonly number[])[],
  rows: readonly number[],
  cols: readonly number[],
  allowed: (row: number, col: number) => boolean,
): [number, number] {
  let best: [number, number] = [-1, -1];
  let least = Infinity;
  for (const r of rows) {
    for (const c of cols) {
      const v = (cost[r] as number[])[c] as number;
      if (v < least && allowed(r, c)) {
        least = v;
        best = [r, c];
      }
    }
  }
  return best;
}

/** Matrices up to this many pairs are solved whole. */
const SMALL = 100;

/** Above any allowed pair's cost in a group: the assignment takes such a pair only when forced. */
const OUT_OF_REACH = 1e9;
