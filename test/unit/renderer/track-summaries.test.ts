import { describe, expect, it } from 'vitest';
import type { ReviewBox } from '../../../electron/shared/contract/review-schemas.js';
import {
  sortTracks,
  summariseTracks,
  trackName,
} from '../../../renderer/src/features/video-review/track-summaries.js';
import {
  keepExisting,
  onlyTrack,
  pickTrack,
  tracksOfBoxes,
} from '../../../renderer/src/features/video-review/track-selection.js';

let n = 0;
function box(trackId: number | null, frameIndex: number, label = 'person', score = 0.8) {
  n += 1;
  const b: ReviewBox = {
    key: `d${n}`,
    detectionId: n,
    correctionId: null,
    frameIndex,
    timeMs: frameIndex * 200,
    label,
    score,
    bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
    origin: 'model',
    review: 'pending',
    deleted: false,
    model: null,
    trackId,
    rule: null,
  };
  return b;
}

describe('track summaries', () => {
  const boxes = [
    // Track 3: a person from frame 6 to 64 (12.8 s), 58 boxes, one of them a dog by mistake.
    ...Array.from({ length: 58 }, (_, i) => box(3, 6 + i, i === 5 ? 'dog' : 'person', 0.9)),
    box(1, 0, 'car', 0.5),
    box(1, 2, 'car', 0.7),
    box(2, 1, 'person', 0.4),
    box(null, 4, 'cat'),
    { ...box(2, 40), deleted: true },
  ];

  it('names each track by class, span and boxes, in the form of the list', () => {
    const byId = new Map(summariseTracks(boxes).map((t) => [t.id, t]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    expect(trackName(byId.get(3)!)).toBe('person #3 · 00:01.2–00:12.6 · 58 boxes');
    expect(trackName(byId.get(2)!)).toBe('person #2 · 00:00.2–00:00.2 · 1 box');
    expect(byId.get(1)!.meanScore).toBeCloseTo(0.6, 6);
  });

  it('names a merged track by its most frequent class, the first seen on a tie', () => {
    const merged = (labels: string[]) =>
      summariseTracks(labels.map((label, i) => box(9, i, label)))[0]?.label;
    expect(merged(['car', 'person', 'person'])).toBe('person');
    expect(merged(['car', 'person'])).toBe('car');
    expect(merged(['dog', 'car', 'person', 'car', 'person', 'person'])).toBe('person');
  });

  it('says when a person decided on every box, or only some', () => {
    const decided = boxes.map((b) => (b.trackId === 1 ? { ...b, review: 'accepted' as const } : b));
    decided[0] = { ...decided[0]!, review: 'rejected' };
    const byId = new Map(summariseTracks(decided).map((t) => [t.id, t]));
    expect(trackName(byId.get(1)!)).toMatch(/ · 2 boxes · accepted$/);
    expect(byId.get(3)!.review).toBe('mixed');
    expect(byId.get(2)!.review).toBe('pending');
  });

  it('sorts by start, length (longest first), class, and mean score (lowest first)', () => {
    const t = summariseTracks(boxes);
    const ids = (sort: Parameters<typeof sortTracks>[1]) => sortTracks(t, sort).map((x) => x.id);
    expect(ids('start')).toEqual([1, 2, 3]);
    expect(ids('length')).toEqual([3, 1, 2]);
    expect(ids('class')).toEqual([1, 2, 3]);
    expect(ids('score')).toEqual([2, 1, 3]);
  });

  it('summarises 50,000 boxes in well under a frame budget of the list', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => box(1 + (i % 3000), i % 7200));
    const started = performance.now();
    const t = summariseTracks(many);
    sortTracks(t, 'score');
    expect(t).toHaveLength(3000);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('track selection', () => {
  const order = [5, 2, 9, 4];
  const click = { shift: false, ctrlOrMeta: false };
  it('click replaces, Ctrl+click toggles, Shift+click takes the range from the active track', () => {
    let sel = pickTrack(onlyTrack(7), order, 1, click);
    expect([...sel.ids]).toEqual([2]);
    sel = pickTrack(sel, order, 3, { shift: false, ctrlOrMeta: true });
    expect([...sel.ids].sort()).toEqual([2, 4]);
    expect(sel.active).toBe(4);
    sel = pickTrack(sel, order, 3, { shift: false, ctrlOrMeta: true });
    expect([...sel.ids]).toEqual([2]);
    sel = pickTrack(onlyTrack(2), order, 3, { shift: true, ctrlOrMeta: false });
    expect([...sel.ids].sort()).toEqual([2, 4, 9]);
    expect(sel.active).toBe(2);
  });

  it('drops tracks no longer there (merged, deleted), and keeps the same object otherwise', () => {
    const sel = { ids: new Set([2, 4]), active: 4 };
    expect(keepExisting(sel, () => true)).toBe(sel);
    const after = keepExisting(sel, (id) => id !== 4);
    expect([...after.ids]).toEqual([2]);
    expect(after.active).toBeNull();
  });

  it('follows the boxes a person picks: their tracks, the newly added one active', () => {
    const picked = (...tracks: (number | null)[]) => tracks.map((trackId) => ({ trackId }));
    expect(tracksOfBoxes(onlyTrack(2), picked(4))).toEqual(onlyTrack(4));
    // Shift adds a box of another track: both selected, the new one active.
    const two = tracksOfBoxes(onlyTrack(4), picked(4, 9, null));
    expect([[...two.ids].sort(), two.active]).toEqual([[4, 9], 9]);
    // A box in no track, or none, leaves no track selected.
    expect(tracksOfBoxes(two, picked(null))).toEqual({ ids: new Set(), active: null });
    expect(tracksOfBoxes(two, [])).toEqual({ ids: new Set(), active: null });
    // Dropping a box keeps the active track if it is still picked.
    expect(tracksOfBoxes(two, picked(9)).active).toBe(9);
  });
});
