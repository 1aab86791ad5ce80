/**
 * An annotation's kept COCO fields are stored as JSON text: the usual annotation's text, written
 * out directly, is exactly what JSON.stringify gives of the kept fields, and so is every other's.
 */
import { describe, expect, it } from 'vitest';
import { keptAnnotation } from '../../../../electron/core/import/coco-kept.js';

describe('keptAnnotation', () => {
  const cases: Record<string, unknown>[] = [
    { id: 1, bbox: [3, 0, 192, 86.4], area: 16588.8 },
    { id: 2, bbox: [0.1, -0, 1e21, 5e-7] },
    { id: -0, bbox: [1, 2, 3, 4], area: 0 },
    { id: 'a1', bbox: [1, 2, 3, 4], area: 12 },
    { id: 3, bbox: [1, 2, 3, 4], area: '12' },
    { id: 4, bbox: [1, 2, 3, 4], segmentation: [[1, 2, 3, 4, 5, 6]] },
    { id: 5, bbox: [1, 2, 3, 4], segmentation: [] },
    { id: 6, bbox: [1, 2, 3, 4], attributes: { occluded: true } },
    { id: 7, bbox: ['1', 2, 3, 4] },
    { bbox: [1, 2, 3, 4] },
  ];
  it.each(cases)('gives what JSON.stringify gives of the kept fields: %j', (a) => {
    const bbox = a['bbox'] as number[];
    const { bbox: _b, area, id, segmentation, ...extra } = a;
    const expected = JSON.stringify({ id, bbox, area, segmentation, extra });
    expect(keptAnnotation({ ...a, image_id: 1, category_id: 1, iscrowd: 0 }, bbox)).toBe(expected);
  });
});
