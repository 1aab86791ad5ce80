/**
 * Boxes cross from the label-reading thread packed: unpacked, every box is what was packed (null
 * frames and times, crowd flags, kept COCO fields and labels included), and a run of several
 * files' boxes gives each file its own.
 */
import { describe, expect, it } from 'vitest';
import type { ImportedBox } from '../../../../electron/core/import/import-model.js';
import {
  KEPT_PART_CHARS,
  packBoxes,
  unpackBoxes,
} from '../../../../electron/core/import/packed-boxes.js';

const box = (i: number, over: Partial<ImportedBox> = {}): ImportedBox => ({
  label: `c${i % 3}`,
  unit: 'px',
  x0: i + 0.25,
  y0: -i,
  x1: i * 10 + 1e-9,
  y1: 1e300,
  frame: null,
  timeMs: null,
  ...over,
});

describe('packed boxes', () => {
  it('unpack to the boxes packed, file by file', () => {
    const boxes = [
      box(0),
      box(1, { unit: 'norm', frame: 0, timeMs: 12.5 }),
      box(2, { crowd: true, coco: '{"id":7,"bbox":[1,2,3,4],"extra":{}}' }),
      box(3, { crowd: false, frame: 41, timeMs: null, label: 'ünïcode "quoted"' }),
      box(4, { coco: '' }),
      box(5, { coco: '{"id":"x\\u0000"}', x0: NaN }),
    ];
    const packed = packBoxes(boxes);
    expect(unpackBoxes(packed, 0, boxes.length)).toEqual(boxes);
    expect(unpackBoxes(packed, 2, 3)).toEqual(boxes.slice(2, 5));
    expect(unpackBoxes(packed, 5, 1)[0]?.x0).toBeNaN();
    // Absent stays absent (not undefined-valued), so objects keep one shape.
    expect('crowd' in (unpackBoxes(packed, 0, 1)[0] as object)).toBe(false);
    expect('coco' in (unpackBoxes(packed, 1, 1)[0] as object)).toBe(false);
    expect(packed.labels).toHaveLength(4);
  });

  it('keep the kept texts in parts no longer than a part (a long string is slow to make)', () => {
    const text = (i: number, n: number) => `{"id":${i},"s":"${'x'.repeat(n)}"}`;
    const boxes = Array.from({ length: 40 }, (_, i) =>
      box(i, i % 5 === 4 ? {} : { coco: text(i, i === 7 ? KEPT_PART_CHARS * 2 : 9_000) }),
    );
    const packed = packBoxes(boxes);
    expect(packed.coco.length).toBeGreaterThan(5);
    // A part holds whole boxes' texts: only the one box longer than a part makes a longer one.
    const long = packed.coco.filter((p) => p.length > KEPT_PART_CHARS);
    expect(long).toEqual([text(7, KEPT_PART_CHARS * 2)]);
    expect(packed.cocoStart).toHaveLength(packed.coco.length);
    expect(unpackBoxes(packed, 0, boxes.length)).toEqual(boxes);
    // From any box on, as a file of a run unpacks its own.
    for (const first of [1, 7, 8, 13, 30, 39])
      expect(unpackBoxes(packed, first, boxes.length - first)).toEqual(boxes.slice(first));
  });

  it('pack no boxes', () => {
    expect(unpackBoxes(packBoxes([]), 0, 0)).toEqual([]);
  });
});
