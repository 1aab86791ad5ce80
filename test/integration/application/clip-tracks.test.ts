/**
 * Tracking a clip off the main thread, once per analysis: the review calls of the app (with the
 * tracker's thread) answer the same tracks as the plain ones, edits that keep track membership
 * never re-run the tracker, a re-analysis does, and a 50,000-box clip is tracked while the main
 * thread goes on answering. Needs `npm run build:node` (the thread runs the built file).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClipTracks } from '../../../electron/application/tracking/clip-tracks.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore, ResultInput } from '../../../electron/core/store/store-types.js';
import { trackModelBoxes } from '../../../electron/core/tracking/model-tracks.js';
import type { CallInput, CallName, CallResult } from '../../../electron/shared/contract/index.js';
import { callReview } from '../../support/review-calls.js';
import { longClipBoxes } from '../../../bench/video-review/long-clip.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
let tracks: ClipTracks;
let clipId: number;

const call = <N extends CallName>(
  name: N,
  input: CallInput<N>,
  withThread = true,
): Promise<CallResult<N>> =>
  callReview(store, () => undefined, name, input, withThread ? tracks : undefined);

function analysis(frames: number, count: number, shift = 0): ResultInput {
  return {
    contentHash: 'hv',
    solution: 'objects',
    serviceUrl: 'u',
    analysedWidth: 640,
    analysedHeight: 360,
    model: null,
    detections: longClipBoxes(frames, count, 1000).map((b) => ({
      frameIndex: b.frameIndex,
      timeMs: b.timeMs,
      label: b.label,
      classId: null,
      score: b.score,
      bbox: { ...b.bbox, x: Math.max(0, b.bbox.x - shift) },
    })),
  };
}

const boxes = async (withThread = true) =>
  (await call('review.boxes', { id: clipId, solution: 'objects' }, withThread)).boxes;

beforeEach(async () => {
  t = await tempDir('labeldesk-clip-tracks-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  tracks = new ClipTracks(store);
  const f = store.folders.add('/lib');
  [clipId] = store.media.upsertMany([
    {
      folderId: f.id,
      path: '/lib/long.mp4',
      kind: 'video',
      contentHash: 'hv',
      size: 1,
      mtimeMs: 1,
      width: 640,
      height: 360,
      orientation: 1,
      durationMs: 600_000,
      fps: 25,
    },
  ]) as [number];
});
afterEach(async () => {
  await tracks.close();
  store.close();
  await t.remove();
});

describe('tracks on the tracker’s thread', () => {
  it('answers the tracks the main thread would, and re-tracks only for a new analysis', async () => {
    store.results.save(analysis(600, 3000));
    const first = await boxes();
    expect(tracks.runs).toBe(1);
    expect(first.map((b) => b.trackId)).toEqual((await boxes(false)).map((b) => b.trackId));
    const tracked = first.filter((b) => b.trackId !== null);
    expect(new Set(tracked.map((b) => b.trackId)).size).toBeGreaterThan(10);

    // Moving, accepting and relabelling a box keep it in its track, and never re-run the tracker.
    const [a, b, c] = tracked.filter((x) => x.frameIndex > 100);
    const ref = (x: (typeof first)[number]) => ({
      detectionId: x.detectionId,
      correctionId: x.correctionId,
    });
    await call('review.edit', {
      id: clipId,
      solution: 'objects',
      edit: { kind: 'move', box: ref(a!), bbox: { ...a!.bbox, x: a!.bbox.x + 0.004 } },
    });
    await call('review.edit', {
      id: clipId,
      solution: 'objects',
      edit: { kind: 'accept', box: ref(b!) },
    });
    await call('review.relabelTrack', {
      id: clipId,
      solution: 'objects',
      trackId: c!.trackId!,
      label: 'walker',
    });
    const after = await boxes();
    expect(tracks.runs).toBe(1);
    expect(after.map((x) => x.trackId)).toEqual(first.map((x) => x.trackId));
    expect(after.filter((x) => x.label === 'walker').length).toBe(
      first.filter((x) => x.trackId === c!.trackId).length,
    );

    // Merging two tracks is laid over the cached tracks too.
    const ids = [...new Set(tracked.map((x) => x.trackId!))].slice(0, 2);
    await call('review.mergeTracks', { id: clipId, solution: 'objects', trackIds: ids });
    const merged = await boxes();
    expect(tracks.runs).toBe(1);
    expect(merged.filter((x) => x.trackId === Math.max(...ids))).toEqual([]);

    // A new analysis is new model output: tracked again, once, whatever calls come at once.
    store.results.save(analysis(600, 3000, 0.002));
    await Promise.all([boxes(), boxes(), boxes()]);
    expect(tracks.runs).toBe(2);
  });

  it('keeps the tracks on disk: a new process reuses them until the clip is analysed again', async () => {
    const dir = join(t.dir, 'tracks');
    store.results.save(analysis(600, 3000));
    const first = new ClipTracks(store, undefined, dir);
    await first.ready(clipId, 'objects');
    await first.close();
    expect(first.runs).toBe(1);
    const expected = (await boxes(false)).map((b) => b.trackId);

    tracks = new ClipTracks(store, undefined, dir);
    expect((await boxes()).map((b) => b.trackId)).toEqual(expected);
    expect(tracks.runs).toBe(0);
    store.results.save(analysis(600, 3000, 0.002));
    await boxes();
    expect(tracks.runs).toBe(1);
  });

  it('tracks 50,000 boxes while the main thread keeps answering', async () => {
    store.results.save(analysis(7200, 50_000));
    const rows = store.results.detections(store.results.find('hv', 'objects')!.id);
    const started = performance.now();
    trackModelBoxes(rows);
    const onMainThreadMs = performance.now() - started;

    let last = performance.now();
    let longestGap = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    await tracks.ready(clipId, 'objects');
    clearInterval(tick);
    expect(tracks.runs).toBe(1);
    // The event loop never stopped for anything like the tracking itself.
    expect(longestGap).toBeLessThan(onMainThreadMs / 2);
    const placed = await boxes();
    expect(placed).toHaveLength(50_000);
    expect(tracks.runs).toBe(1);
  }, 60_000);
});
