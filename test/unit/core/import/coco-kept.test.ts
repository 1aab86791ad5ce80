/**
 * An annotation's kept COCO fields are stored as JSON text: the annotation as its file gave it
 * (what imports store now), or the kept fields alone (what earlier imports stored). Both read as
 * the same kept fields.
 */
import { describe, expect, it } from 'vitest';
import { readKeptAnnotation } from '../../../../electron/core/import/coco-kept.js';

describe('readKeptAnnotation', () => {
  const own = { image_id: 12, category_id: 3, iscrowd: 0, score: 0.9 };
  const cases: Record<string, unknown>[] = [
    { id: 1, bbox: [3, 0, 192, 86.4], area: 16588.8 },
    { id: 2, bbox: [0.1, 0, 1e21, 5e-7] },
    { id: 'a1', bbox: [1, 2, 3, 4], area: 12 },
    { id: 4, bbox: [1, 2, 3, 4], segmentation: [[1, 2, 3, 4, 5, 6]] },
    { id: 5, bbox: [1, 2, 3, 4], segmentation: { counts: 'abc', size: [4, 4] } },
    { id: 6, bbox: [1, 2, 3, 4], attributes: { occluded: true }, extra: 'named extra' },
    { bbox: [1, 2, 3, 4] },
  ];

  it.each(cases)('reads the annotation as its file gave it, and as stored before: %j', (a) => {
    const { bbox, area, id, segmentation, ...extra } = a;
    const expected = { id, bbox, area, segmentation, extra };
    // A pretty-printed file's text, as sliced from it.
    const asGiven = JSON.stringify({ ...own, ...a }, null, 2);
    expect(readKeptAnnotation(asGiven)).toEqual(expected);
    expect(readKeptAnnotation(JSON.stringify(expected))).toEqual(expected);
  });

  it('reads nothing from text without a box of four numbers, or that is not an object', () => {
    for (const text of [null, '', '{', '[1,2]', '3', 'null', '{"image_id":1,"bbox":[1,2,3]}'])
      expect(readKeptAnnotation(text)).toBeNull();
  });
});
