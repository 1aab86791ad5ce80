/** The review calls over a real library: results match the contract, edits undo, events fire. */
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
let imageId: number;
let clipId: number;

const call = <N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> =>
  callReview(store, (folderId) => changed.push(folderId), name, input);

const box = (label: string, x: number, frameIndex = 0) => ({
  frameIndex,
  timeMs: frameIndex * 500,
  label,
  classId: null,
  score: 0.5 + x / 2,
  bbox: { x, y: 0.1, w: 0.2, h: 0.3 },
});

beforeEach(async () => {
  t = await tempDir('labeldesk-review-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  changed = [];
  const f = store.folders.add('/lib');
  const common = { folderId: f.id, size: 1, mtimeMs: 1, width: 100, height: 50, orientation: 1 };
  [imageId, clipId] = store.media.upsertMany([
    {
      ...common,
      path: '/lib/a.jpg',
      kind: 'image',
      contentHash: 'ha',
      durationMs: null,
      fps: null,
    },
    { ...common, path: '/lib/v.mp4', kind: 'video', contentHash: 'hv', durationMs: 2000, fps: 10 },
  ]) as [number, number];
  const result = (contentHash: string, detections: ReturnType<typeof box>[]) => ({
    contentHash,
    solution: 'objects',
    serviceUrl: 'u',
    analysedWidth: 100,
    analysedHeight: 50,
    model: null,
    detections,
  });
  store.results.save(result('ha', [box('cat', 0.1), box('dog', 0.5), box('cat', 0.7)]));
  store.results.save(
    result('hv', [
      box('person', 0.1, 0),
      box('person', 0.12, 1),
      box('person', 0.6, 1),
      box('person', 0.14, 2),
    ]),
  );
});
afterEach(async () => {
  store.close();
  await t.remove();
});

describe('review calls', () => {
  it('edit answers the box and its undo; undo restores it; library.changed fires', async () => {
    const { boxes } = await call('review.boxes', { id: imageId, solution: 'objects' });
    const dog = boxes[1]!;
    const ref = { detectionId: dog.detectionId, correctionId: dog.correctionId };
    const moved = await call('review.edit', {
      id: imageId,
      solution: 'objects',
      edit: { kind: 'move', box: ref, bbox: { x: 0.6, y: 0.2, w: 0.2, h: 0.3 } },
    });
    expect(moved.box).toMatchObject({ origin: 'edited', bbox: { x: 0.6, y: 0.2 } });
    expect(changed).toHaveLength(1);
    await call('review.edit', { id: imageId, solution: 'objects', edit: moved.inverse });
    const after = await call('review.boxes', { id: imageId, solution: 'objects' });
    expect(after.boxes[1]).toMatchObject({ origin: 'model', bbox: dog.bbox });
  });

  it('accept all above a threshold and in a class; its undo in one call', async () => {
    const r = await call('review.acceptAll', {
      id: imageId,
      solution: 'objects',
      minScore: 0.6,
      classes: ['cat'],
    });
    expect(r.changed).toBe(1);
    let shown = (await call('review.boxes', { id: imageId, solution: 'objects' })).boxes;
    expect(shown.map((b) => b.review)).toEqual(['pending', 'pending', 'accepted']);
    await call('review.editMany', { id: imageId, solution: 'objects', edits: r.inverse });
    shown = (await call('review.boxes', { id: imageId, solution: 'objects' })).boxes;
    expect(shown.map((b) => b.review)).toEqual(['pending', 'pending', 'pending']);
  });

  it('relabels a whole track of a clip, and lists a frame’s boxes with their tracks', async () => {
    // The walker seen on frames 0–2 is a track; the box seen once, on frame 1, is in none.
    const frame1 = await call('review.boxes', { id: clipId, solution: 'objects', frameIndex: 1 });
    expect(frame1.boxes.map((b) => b.trackId)).toEqual([1, null]);
    const r = await call('review.relabelTrack', {
      id: clipId,
      solution: 'objects',
      trackId: 1,
      label: 'cyclist',
    });
    expect(r.changed).toBe(3);
    const all = await call('review.boxes', { id: clipId, solution: 'objects' });
    expect(all.boxes.map((b) => `${b.frameIndex}:${b.label}:${b.trackId}`)).toEqual([
      '0:cyclist:1',
      '1:cyclist:1',
      '1:person:null',
      '2:cyclist:1',
    ]);
  });

  it('an unknown box or item is a coded error', async () => {
    await expect(
      call('review.edit', {
        id: imageId,
        solution: 'objects',
        edit: { kind: 'accept', box: { detectionId: 9999, correctionId: null } },
      }),
    ).rejects.toMatchObject({ code: 'unknown_box' });
    await expect(call('review.boxes', { id: 424242, solution: 'objects' })).rejects.toMatchObject({
      code: 'unknown_item',
    });
  });
});
