/** Issue 23 §1: the image answer's size cap follows the catalog's published detection limit. */
import { describe, expect, it } from 'vitest';
import {
  answerCapsOf,
  DEFAULT_ANSWER_CAPS,
} from '../../../../electron/core/service/answer-caps.js';
import { parseCatalog } from '../../../../electron/core/service/service-adapter.js';

const MB = 1024 * 1024;
const limitsWith = (extra: Record<string, unknown>) =>
  parseCatalog({
    version: '1',
    limits: { maxVideoSeconds: 60, videoSampleFps: 2, ...extra },
    solutions: [{ id: 'objects', media: ['image'], frameCost: { image: 1, videoFrame: 1 } }],
  }).limits;

describe('answer caps', () => {
  it('is 8 MB (10,000 detections) for an image when the catalog publishes no detection limit', () => {
    expect(DEFAULT_ANSWER_CAPS.image).toBe(8 * MB);
    expect(answerCapsOf(limitsWith({})).image).toBe(8 * MB);
  });

  it('reads the detection limit under the usual names and sizes the image cap by it', () => {
    expect(limitsWith({ max_det: 300 }).maxDetections).toBe(300);
    expect(limitsWith({ MaxLabels: 1000 }).maxDetections).toBe(1000);
    expect(answerCapsOf(limitsWith({ maxDetections: 100 })).image).toBe(1 * MB);
    expect(answerCapsOf(limitsWith({ maxDetectionsPerImage: 3000 })).image).toBe(3 * MB);
  });

  it('never goes below 1 MB nor above the default, whatever the catalog says', () => {
    expect(answerCapsOf(limitsWith({ maxDetections: 1 })).image).toBe(1 * MB);
    expect(answerCapsOf(limitsWith({ maxDetections: 1e9 })).image).toBe(8 * MB);
    expect(limitsWith({ maxDetections: -5 }).maxDetections).toBeUndefined();
  });

  it('keeps the clip cap from the clip length and sampling rate', () => {
    expect(answerCapsOf(limitsWith({ maxDetections: 100 })).job).toBe(8 * MB);
  });
});
