import { describe, expect, it } from 'vitest';
import { chartColumns } from '../../../renderer/src/features/video-review/chart-columns.js';

describe('the count chart fitted to its width', () => {
  it('keeps every point when they fit', () => {
    const data = { timesMs: [0, 1000, 2000], series: [{ label: 'car', counts: [1, 0, 2] }] };
    expect(chartColumns(data, 3000, 100)).toEqual([
      [0, 1, 2],
      [1, 0, 2],
    ]);
  });

  it('keeps the busiest frame of each pixel column, per class, at the column’s first time', () => {
    const timesMs = Array.from({ length: 7200 }, (_, i) => i * 1000);
    const person = timesMs.map((_, i) => (i === 4005 ? 9 : i % 3));
    const dog = timesMs.map((_, i) => (i === 4006 ? 5 : 0));
    const [xs, p, d] = chartColumns(
      {
        timesMs,
        series: [
          { label: 'person', counts: person },
          { label: 'dog', counts: dog },
        ],
      },
      7_200_000,
      900,
    );
    expect(xs).toHaveLength(900);
    expect(p).toHaveLength(900);
    // 8 frames per column: frames 4000–4007 are column 500, which starts at 4,000 s.
    expect(xs?.[500]).toBe(4000);
    expect(p?.[500]).toBe(9);
    expect(d?.[500]).toBe(5);
    expect(d?.[499]).toBe(0);
    expect(p?.[0]).toBe(2);
  });
});
