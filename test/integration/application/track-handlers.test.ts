/**
 * Decisions on a whole track of a clip over a real library: every box of the track at once, one
 * undo step, and kept through a re-analysis that returns the boxes slightly moved.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import type { CallInput, CallName, CallResult } from '../../../electron/shared/contract/index.js';
import { callReview } from '../../support/review-calls.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
let changed: number[];
let clipId: number;

const call = <N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> =>
  callReview(store, (folderId) => changed.push(folderId), name, input);
const editTracks = (trackIds: number[], kind: 'accept' | 'reject' | 'delete') =>
  call('review.editTrack', { id: clipId, solution: 'objects', trackIds, kind });
const editTrack = (trackId: number, kind: 'accept' | 'reject' | 'delete') =>
  editTracks([trackId], kind);
const undo = (inverse: CallResult<'review.editTrack'>['inverse']) =>
  call('review.editMany', { id: clipId, solution: 'objects', edits: inverse });

/**
 * Two walkers on frames 0–4 (one going right, one going left, apart), and a lone box; `standing`
 * adds a person standing still between them from frame 0 (a re-analysis that finds one more).
 */
function analysis(shift = 0, standing = false) {
  const box = (label: string, frameIndex: number, x: number, y: number) => ({
    frameIndex,
    timeMs: frameIndex * 200,
    label,
    classId: null,
    score: 0.8,
    bbox: { x: x + shift, y, w: 0.1, h: 0.3 },
  });
  const boxes = [0, 1, 2, 3, 4].flatMap((f) => [
    box('person', f, 0.1 + 0.04 * f, 0.2),
    box('person', f, 0.7 - 0.04 * f, 0.6),
  ]);
  boxes.push(box('dog', 2, 0.45, 0.05));
  if (standing) boxes.push(...[0, 1, 2, 3, 4].map((f) => box('person', f, 0.4, 0.05)));
  return {
    contentHash: 'hv',
    solution: 'objects',
    serviceUrl: 'u',
    analysedWidth: 100,
    analysedHeight: 50,
    model: null,
    detections: boxes,
  };
}

const boxes = async (includeDeleted = false) =>
  (await call('review.boxes', { id: clipId, solution: 'objects', includeDeleted })).boxes;
const summary = async (includeDeleted = false) =>
  (await boxes(includeDeleted)).map(
    (b) => `${b.frameIndex}:${b.label}:${b.trackId}:${b.review}${b.deleted ? ':deleted' : ''}`,
  );

beforeEach(async () => {
  t = await tempDir('labeldesk-tracks-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  changed = [];
  const f = store.folders.add('/lib');
  [clipId] = store.media.upsertMany([
    {
      folderId: f.id,
      path: '/lib/v.mp4',
      kind: 'video',
      contentHash: 'hv',
      size: 1,
      mtimeMs: 1,
      width: 100,
      height: 50,
      orientation: 1,
      durationMs: 1000,
      fps: 10,
    },
  ]) as [number];
  store.results.save(analysis());
});
afterEach(async () => {
  store.close();
  await t.remove();
});

describe('track decisions', () => {
  it('accepts every box of one track in one call, and one editMany undoes it', async () => {
    const before = await summary();
    expect(before.filter((s) => s.includes(':person:1:'))).toHaveLength(5);
    expect(before.filter((s) => s.includes(':person:2:'))).toHaveLength(5);
    expect(before).toContain('2:dog:null:pending'); // seen once: in no track

    const r = await editTrack(2, 'accept');
    expect(r.changed).toBe(5);
    expect(changed).toHaveLength(1);
    const after = await summary();
    expect(after.filter((s) => s.endsWith(':accepted'))).toEqual(
      before.filter((s) => s.includes(':person:2:')).map((s) => s.replace('pending', 'accepted')),
    );
    // Accepting again changes nothing (and records no empty undo step).
    const again = await editTrack(2, 'accept');
    expect(again.changed).toBe(0);

    await undo(r.inverse);
    expect(await summary()).toEqual(before);
  });

  it('rejects a track: its boxes stay in their track (to be found again); undo brings it back', async () => {
    const before = await summary();
    const r = await editTrack(1, 'reject');
    expect(r.changed).toBe(5);
    const after = await boxes();
    const rejected = after.filter((b) => b.review === 'rejected');
    expect(rejected).toHaveLength(5);
    expect(rejected.every((b) => b.trackId === 1)).toBe(true);
    // Its id is the person's: the other walker keeps its own.
    expect(after.filter((b) => b.trackId === 2 && b.review === 'pending')).toHaveLength(5);
    await undo(r.inverse);
    expect(await summary()).toEqual(before);
  });

  it('deletes a track, and undo restores its boxes', async () => {
    const before = await summary();
    const r = await editTrack(1, 'delete');
    expect(r.changed).toBe(5);
    expect(await boxes()).toHaveLength(6);
    // The track after it keeps its id (the deleted track's is not given to another).
    expect((await boxes()).filter((b) => b.trackId === 2)).toHaveLength(5);
    expect((await boxes()).some((b) => b.trackId === 1)).toBe(false);
    expect((await boxes(true)).filter((b) => b.deleted)).toHaveLength(5);
    await undo(r.inverse);
    expect(await summary()).toEqual(before);
  });

  it('decides on several tracks in one call: one transaction, one undo step', async () => {
    const before = await summary();
    const r = await editTracks([1, 2], 'reject');
    expect(r.changed).toBe(10);
    expect(changed).toHaveLength(1);
    const after = await summary();
    expect(after.filter((s) => s.endsWith(':rejected'))).toHaveLength(10);
    expect(after).toContain('2:dog:null:pending');
    await undo(r.inverse);
    expect(await summary()).toEqual(before);
  });

  it('refuses the whole call when one track is not in the clip: nothing is half done', async () => {
    const before = await summary(true);
    // Track 2 exists and comes first; 7 does not (and 1 is deleted first, so it no longer does).
    await expect(editTracks([2, 7], 'accept')).rejects.toMatchObject({
      code: 'unknown_track',
      message: expect.stringContaining('#7'),
    });
    expect(await summary(true)).toEqual(before);
    const gone = await editTrack(1, 'delete');
    const afterDelete = await summary(true);
    await expect(editTracks([2, 1], 'delete')).rejects.toMatchObject({ code: 'unknown_track' });
    expect(await summary(true)).toEqual(afterDelete);
    expect(changed).toHaveLength(1); // only the delete that went through
    await undo(gone.inverse);
    expect(await summary(true)).toEqual(before);
  });

  it('keeps the decisions when the clip is analysed again and its boxes come back moved', async () => {
    await editTrack(2, 'accept');
    await editTrack(1, 'delete');
    store.results.save(analysis(0.004));
    const after = await boxes(true);
    expect(after).toHaveLength(11);
    const walkers = after.filter((b) => b.label === 'person');
    const gone = walkers.filter((b) => b.deleted);
    const kept = walkers.filter((b) => !b.deleted);
    expect(gone.map((b) => b.bbox.y)).toEqual([0.2, 0.2, 0.2, 0.2, 0.2]);
    expect(kept.map((b) => [b.bbox.y, b.review])).toEqual(
      [0, 1, 2, 3, 4].map(() => [0.6, 'accepted']),
    );
    expect(new Set(kept.map((b) => b.trackId)).size).toBe(1);
  });
});

describe('merging and splitting tracks', () => {
  const merge = (trackIds: number[]) =>
    call('review.mergeTracks', { id: clipId, solution: 'objects', trackIds });
  const split = (trackId: number, frameIndex: number) =>
    call('review.splitTrack', { id: clipId, solution: 'objects', trackId, frameIndex });
  /** Each walker's track per frame: [frame, y, track]. */
  const walkerTracks = async () =>
    (await boxes())
      .filter((b) => b.label === 'person')
      .map((b) => [b.frameIndex, b.bbox.y, b.trackId]);

  it('merges two tracks into the first, kept through undo, edits and re-analysis', async () => {
    const before = await summary();
    const r = await merge([2, 1]);
    expect(r.changed).toBe(10);
    const merged = await walkerTracks();
    expect(merged.every(([, , track]) => track === 1)).toBe(true);
    // A later edit of a merged box keeps it in the person's track.
    const moved = (await boxes()).find((b) => b.label === 'person' && b.frameIndex === 3)!;
    await call('review.edit', {
      id: clipId,
      solution: 'objects',
      edit: {
        kind: 'move',
        box: { detectionId: moved.detectionId, correctionId: moved.correctionId },
        bbox: { ...moved.bbox, x: moved.bbox.x + 0.01 },
      },
    });
    expect(await walkerTracks()).toEqual(merged);
    store.results.save(analysis(0.004));
    expect((await walkerTracks()).every(([, , track]) => track === 1)).toBe(true);
    // Undo of the merge: the tracker's two tracks again (the move stays).
    await undo(r.inverse);
    expect((await summary()).filter((s) => !s.startsWith('3:'))).toEqual(
      before.filter((s) => !s.startsWith('3:')),
    );
  });

  it('refuses a merge or a split naming a track not in the clip, and changes nothing', async () => {
    const before = await summary(true);
    await expect(merge([1, 7])).rejects.toMatchObject({
      code: 'unknown_track',
      message: expect.stringMatching(/#7 is not in this clip/),
    });
    await expect(merge([8, 9])).rejects.toMatchObject({
      code: 'unknown_track',
      message: expect.stringContaining('#8, #9 are'),
    });
    await expect(split(7, 2)).rejects.toMatchObject({ code: 'unknown_track' });
    expect(await summary(true)).toEqual(before);
    // A deleted track is no longer in the clip either.
    await editTrack(1, 'delete');
    const afterDelete = await summary(true);
    await expect(merge([2, 1])).rejects.toMatchObject({ code: 'unknown_track' });
    await expect(split(1, 2)).rejects.toMatchObject({ code: 'unknown_track' });
    expect(await summary(true)).toEqual(afterDelete);
    expect(changed).toHaveLength(1); // only the delete
  });

  it('splits a track at a frame: the later boxes become a new track; undo joins them again', async () => {
    const before = await summary();
    const r = await split(1, 2);
    expect(r.changed).toBe(5);
    const y = (await boxes()).find((b) => b.trackId === 1)!.bbox.y;
    const first = (await walkerTracks()).filter(([, by]) => by === y);
    expect(first).toEqual([
      [0, y, 1],
      [1, y, 1],
      [2, y, 3],
      [3, y, 3],
      [4, y, 3],
    ]);
    // The other walker keeps the tracker's id 2, and re-analysis changes none of it.
    store.results.save(analysis(0.004));
    expect((await walkerTracks()).filter(([, by]) => by === y)).toEqual(first);
    expect((await walkerTracks()).filter(([, by]) => by !== y).map(([, , t]) => t)).toEqual([
      2, 2, 2, 2, 2,
    ]);
    // A cut at a track's first frame, or past its end, changes nothing.
    expect((await split(2, 0)).changed).toBe(0);
    expect((await split(2, 9)).changed).toBe(0);
    await undo(r.inverse);
    expect(await summary()).toEqual(before);
  });
});

describe('stable track ids', () => {
  /** The right-to-left walker's track on each frame (it starts at x 0.7: the tracker's #2). */
  const secondWalker = async () =>
    (await boxes())
      .filter((b) => b.bbox.y === 0.6)
      .map((b) => [b.frameIndex, b.trackId, b.label, b.review]);

  it('a re-analysis that finds a new object first renumbers only the tracks no person edited', async () => {
    // Not edited: the new person (first box left of it on frame 0) takes its number.
    store.results.save(analysis(0.004, true));
    expect((await secondWalker()).map(([, track]) => track)).toEqual([3, 3, 3, 3, 3]);
    store.results.save(analysis());
    expect((await secondWalker()).map(([, track]) => track)).toEqual([2, 2, 2, 2, 2]);
  });

  it.each([
    ['accepted', () => editTrack(2, 'accept'), 'person', 'accepted'],
    ['rejected', () => editTrack(2, 'reject'), 'person', 'rejected'],
    [
      'relabelled',
      () =>
        call('review.relabelTrack', {
          id: clipId,
          solution: 'objects',
          trackId: 2,
          label: 'walker',
        }),
      'walker',
      'pending',
    ],
  ] as const)(
    'a track a person %s keeps its id through that re-analysis',
    async (_, edit, label, review) => {
      const r = await edit();
      expect(r.changed).toBe(5);
      store.results.save(analysis(0.004, true));
      expect(await secondWalker()).toEqual([0, 1, 2, 3, 4].map((f) => [f, 2, label, review]));
      // The new person is tracked around it: another id, never 2.
      const standing = (await boxes()).filter((b) => b.bbox.y === 0.05 && b.label === 'person');
      expect(standing).toHaveLength(5);
      expect(new Set(standing.map((b) => b.trackId))).toEqual(new Set([3]));
      // One undo step takes the decision and the pin back: renumbered like any tracker track.
      await undo(r.inverse);
      expect((await secondWalker()).map(([, track, l, v]) => [track, l, v])).toEqual(
        [0, 1, 2, 3, 4].map(() => [3, 'person', 'pending']),
      );
    },
  );
});
