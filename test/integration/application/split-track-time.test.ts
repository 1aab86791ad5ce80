/**
 * A track is split where its boxes are in the clip's time: a keyframe a person drew between two
 * analysed frames (stored under a negative frame index) goes to the half it lies in, and a cut can
 * fall between samples too. Over a real library, through the contract's schemas.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { timeOfFrame } from '../../../electron/shared/geometry/track-interpolation.js';
import type { CallInput, CallName, CallResult } from '../../../electron/shared/contract/index.js';
import { addClip } from '../../support/clip-library.js';
import { callReview } from '../../support/review-calls.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
let clipId: number;
const FPS = 10;
const ref = () => ({ id: clipId, solution: 'objects' });
const call = <N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> =>
  callReview(store, () => undefined, name, input);

beforeEach(async () => {
  t = await tempDir('labeldesk-split-time-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  clipId = addClip(store, {
    name: 'walk.mp4',
    contentHash: 'hw',
    width: 200,
    height: 100,
    fps: FPS,
    durationMs: 2000,
  });
  // One walker analysed 5 times a second: samples 0–5 on clip frames 0, 2, … 10.
  store.results.save({
    contentHash: 'hw',
    solution: 'objects',
    serviceUrl: 'u',
    analysedWidth: 200,
    analysedHeight: 100,
    model: null,
    detections: [0, 1, 2, 3, 4, 5].map((s) => ({
      frameIndex: s,
      timeMs: s * 200,
      label: 'person',
      classId: null,
      score: 0.9,
      bbox: { x: 0.1 + 0.05 * s, y: 0.3, w: 0.1, h: 0.4 },
    })),
  });
  // Keyframes of its track on clip frames 3 and 7, between samples.
  for (const frame of [3, 7]) {
    await call('review.addKeyframe', {
      ...ref(),
      trackId: 1,
      frameIndex: frame,
      keyframe: true,
      timeMs: timeOfFrame(frame, FPS),
      label: 'person',
      bbox: { x: 0.1 + 0.025 * frame, y: 0.3, w: 0.1, h: 0.4 },
    });
  }
});
afterEach(async () => {
  store.close();
  await t.remove();
});

/** Each box of the walker as `clip frame:track`, in time order. */
async function tracks(): Promise<string[]> {
  const { boxes } = await call('review.boxes', ref());
  return boxes
    .filter((b) => !b.deleted)
    .sort((a, b) => (a.timeMs ?? 0) - (b.timeMs ?? 0))
    .map((b) => `${Math.round(((b.timeMs ?? 0) * FPS) / 1000)}:${b.trackId}`);
}

describe('review.splitTrack', () => {
  it('at a sample, a keyframe after it joins the new track and one before it stays', async () => {
    expect(await tracks()).toEqual(['0:1', '2:1', '3:1', '4:1', '6:1', '7:1', '8:1', '10:1']);
    const r = await call('review.splitTrack', { ...ref(), trackId: 1, frameIndex: 3 });
    expect(await tracks()).toEqual(['0:1', '2:1', '3:1', '4:1', '6:2', '7:2', '8:2', '10:2']);
    // The keyframes made the whole track a person's: only the later half's boxes change.
    expect(r.changed).toBe(4);
    await call('review.editMany', { ...ref(), edits: r.inverse });
    expect(new Set((await tracks()).map((s) => s.split(':')[1]))).toEqual(new Set(['1']));
  });

  it('at a frame between samples (its time given), on that frame’s keyframe', async () => {
    const r = await call('review.splitTrack', {
      ...ref(),
      trackId: 1,
      frameIndex: 2,
      timeMs: timeOfFrame(3, FPS),
    });
    expect(r.changed).toBeGreaterThan(0);
    expect(await tracks()).toEqual(['0:1', '2:1', '3:2', '4:2', '6:2', '7:2', '8:2', '10:2']);
  });

  it('a cut before the first box or after the last changes nothing', async () => {
    const at = (timeMs: number) =>
      call('review.splitTrack', { ...ref(), trackId: 1, frameIndex: 0, timeMs });
    expect((await at(0)).changed).toBe(0);
    expect((await at(2001)).changed).toBe(0);
  });
});
