import { describe, expect, it } from 'vitest';
import { minCostAssignment } from '../../../../electron/core/tracking/hungarian.js';

const total = (cost: number[][], cols: number[]) =>
  cols.reduce((s, c, r) => (c < 0 ? s : s + (cost[r]?.[c] ?? 0)), 0);

/** Every assignment tried: the reference for small matrices. */
function bruteForce(cost: number[][]): number {
  const rows = cost.length;
  const cols = cost[0]?.length ?? 0;
  const pick = (r: number, used: Set<number>): number => {
    if (r === rows) return 0;
    let best = rows > cols ? pick(r + 1, used) : Infinity; // a row may stay out only if rows > cols
    if (rows > cols && rows - r <= cols - used.size) best = Infinity;
    for (let c = 0; c < cols; c++) {
      if (used.has(c)) continue;
      used.add(c);
      best = Math.min(best, (cost[r]?.[c] ?? 0) + pick(r + 1, used));
      used.delete(c);
    }
    return best;
  };
  return pick(0, new Set());
}

describe('minCostAssignment', () => {
  it('solves a square matrix where the greedy choice is wrong', () => {
    // Greedy would take (0,0)=1 and be left with (1,1)=100; the best is 2 + 3.
    const cost = [
      [1, 2],
      [3, 100],
    ];
    expect(minCostAssignment(cost)).toEqual([1, 0]);
  });

  it('solves a known 4×4 matrix', () => {
    const cost = [
      [82, 83, 69, 92],
      [77, 37, 49, 92],
      [11, 69, 5, 86],
      [8, 9, 98, 23],
    ];
    const cols = minCostAssignment(cost);
    expect(cols).toEqual([2, 1, 0, 3]);
    expect(total(cost, cols)).toBe(140);
  });

  it('gives every row a column when there are more columns, and leaves rows out when fewer', () => {
    const wide = [
      [5, 1, 9],
      [4, 8, 2],
    ];
    expect(minCostAssignment(wide)).toEqual([1, 2]);
    const tall = [
      [5, 4],
      [1, 8],
      [9, 2],
    ];
    expect(minCostAssignment(tall)).toEqual([-1, 0, 1]);
    expect(minCostAssignment([])).toEqual([]);
    expect(minCostAssignment([[], []])).toEqual([-1, -1]);
  });

  it('matches an exhaustive search on random rectangular matrices', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let n = 0; n < 200; n++) {
      const rows = 1 + Math.floor(rnd() * 5);
      const cols = 1 + Math.floor(rnd() * 5);
      const cost = Array.from({ length: rows }, () =>
        Array.from({ length: cols }, () => Math.round(rnd() * 20) - 5),
      );
      const assigned = minCostAssignment(cost);
      expect(new Set(assigned.filter((c) => c >= 0)).size).toBe(Math.min(rows, cols));
      expect(total(cost, assigned)).toBe(bruteForce(cost));
    }
  });

  it('refuses a ragged matrix or a cost that is not a finite number', () => {
    expect(() => minCostAssignment([[1, 2], [3]])).toThrow(RangeError);
    expect(() => minCostAssignment([[1, Infinity]])).toThrow(RangeError);
  });
});
