/**
 * People's edits laid over the model's tracks without re-tracking: numbers stay put when a
 * person merges, splits, rejects or deletes, and a drawn box joins the track it continues.
 */
import { describe, expect, it } from 'vitest';
import type { MergedBox } from '../../../../electron/core/review/merge-corrections.js';
import { placeTracks } from '../../../../electron/core/review/place-tracks.js';
import { trackModelBoxes } from '../../../../electron/core/tracking/model-tracks.js';

let nextId = 1;
function box(frameIndex: number, x: number, y: number, over: Partial<MergedBox> = {}): MergedBox {
  const id = nextId++;
  const bbox = { x, y, w: 0.1, h: 0.2 };
  return {
    id,
    resultId: 1,
    frameIndex,
    timeMs: frameIndex * 1000,
    label: 'person',
    classId: 0,
    score: 0.9,
    bbox,
    origin: 'model',
    review: 'pending',
    key: `d${id}`,
    detectionId: id,
    correctionId: null,
    model: { label: 'person', score: 0.9, bbox },
    deleted: false,
    personTrack: null,
    rule: null,
    ...over,
  };
}

/** Three walkers apart from each other over frames 0–5. */
function clip(): MergedBox[] {
  nextId = 1;
  return [0, 1, 2, 3, 4, 5].flatMap((f) => [
    box(f, 0.05 + 0.02 * f, 0.1),
    box(f, 0.45, 0.4 + 0.02 * f),
    box(f, 0.8 - 0.02 * f, 0.7),
  ]);
}

const ids = (boxes: MergedBox[]) =>
  placeTracks(boxes, trackModelBoxes(boxes)).map((b) => (b as { trackId?: number }).trackId);
const fresh = (boxes: MergedBox[]) => boxes.map((b) => ({ ...b }));

describe('placing tracks over the model’s', () => {
  it('numbers the model’s tracks by their first box', () => {
    expect(ids(clip()).slice(0, 6)).toEqual([1, 2, 3, 1, 2, 3]);
  });

  it('merging two tracks renumbers no other track', () => {
    const model = trackModelBoxes(clip());
    const boxes = clip().map((b, i) => (i % 3 !== 2 ? { ...b, personTrack: 1 } : b));
    const placed = placeTracks(fresh(boxes), model);
    expect(new Set(placed.filter((_, i) => i % 3 !== 2).map((b) => b.trackId))).toEqual(
      new Set([1]),
    );
    expect(new Set(placed.filter((_, i) => i % 3 === 2).map((b) => b.trackId))).toEqual(
      new Set([3]),
    );
  });

  it('a rejected or deleted box leaves its track; moving or accepting one keeps it there', () => {
    const model = trackModelBoxes(clip());
    const boxes = clip();
    boxes[3] = { ...boxes[3]!, review: 'rejected' };
    boxes[4] = { ...boxes[4]!, deleted: true };
    boxes[5] = {
      ...boxes[5]!,
      origin: 'edited',
      review: 'accepted',
      bbox: { x: 0.5, y: 0.5, w: 0.1, h: 0.1 },
    };
    const placed = placeTracks(boxes, model);
    expect(placed.slice(3, 6).map((b) => b.trackId)).toEqual([undefined, undefined, 3]);
    expect(placed.slice(6, 9).map((b) => b.trackId)).toEqual([1, 2, 3]);
  });

  it('a track whose model boxes are cut to fewer than three is no track; its number stays free', () => {
    const model = trackModelBoxes(clip());
    const boxes = clip().map((b, i) =>
      i % 3 === 0 && b.frameIndex > 1 ? { ...b, deleted: true } : b,
    );
    const placed = placeTracks(boxes, model);
    expect(placed.filter((_, i) => i % 3 === 0).map((b) => b.trackId)).toEqual(
      Array(6).fill(undefined),
    );
    expect(placed.slice(0, 3).map((b) => b.trackId)).toEqual([undefined, 2, 3]);
  });

  it('a drawn box joins the track it continues; one far from any starts a track after the others', () => {
    const boxes = clip().filter((b) => !(b.frameIndex === 5 && b.bbox.y === 0.1));
    const model = trackModelBoxes(boxes);
    const drawn = (x: number, y: number, c: number) =>
      box(5, x, y, {
        origin: 'added',
        detectionId: null,
        correctionId: c,
        key: `c${c}`,
        model: null,
        score: 1,
      });
    const placed = placeTracks([...fresh(boxes), drawn(0.15, 0.1, 1), drawn(0.3, 0.9, 2)], model);
    expect(placed.slice(-2).map((b) => b.trackId)).toEqual([1, 4]);
  });
});
