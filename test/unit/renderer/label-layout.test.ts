import { describe, expect, it } from 'vitest';
import { placeLabels } from '../../../renderer/src/features/review/label-layout.js';

const H = 15;
const rect = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });

/** Every pair of labels that cover each other. */
function overlaps(
  items: { box: { x: number }; width: number }[],
  spots: { x: number; y: number }[],
) {
  const found: [number, number][] = [];
  spots.forEach((a, i) =>
    spots.forEach((b, j) => {
      if (j <= i) return;
      const wa = items[i]!.width;
      const wb = items[j]!.width;
      if (a.x < b.x + wb && b.x < a.x + wa && a.y < b.y + H && b.y < a.y + H) found.push([i, j]);
    }),
  );
  return found;
}

describe('placeLabels', () => {
  it('puts a lone label above its box, or inside when the box touches the top', () => {
    expect(placeLabels([{ box: rect(10, 40, 100, 80), width: 60 }], H)).toEqual([{ x: 10, y: 25 }]);
    expect(placeLabels([{ box: rect(10, 5, 100, 80), width: 60 }], H)).toEqual([{ x: 10, y: 5 }]);
  });

  it('moves the label of a box sharing a corner inside its box, not over the first label', () => {
    const items = [
      { box: rect(100, 100, 200, 150), width: 80 },
      { box: rect(100, 100, 120, 90), width: 90 },
    ];
    const spots = placeLabels(items, H);
    expect(spots).toEqual([
      { x: 100, y: 85 },
      { x: 100, y: 100 },
    ]);
    expect(overlaps(items, spots)).toEqual([]);
  });

  it('moves a third label below when above and inside are taken', () => {
    const items = [0, 1, 2].map(() => ({ box: rect(50, 50, 100, 100), width: 70 }));
    const spots = placeLabels(items, H);
    expect(spots.map((s) => s.y)).toEqual([35, 50, 150]);
  });

  it('keeps a crowd of boxes sharing corners free of overlapping labels', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({
      box: rect(20 + (i % 4) * 60, 40 + Math.floor(i / 4) * 40, 60, 40),
      width: 70,
    }));
    const spots = placeLabels(items, H);
    expect(overlaps(items, spots)).toEqual([]);
  });
});
