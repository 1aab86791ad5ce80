/**
 * Keyframes over a real library: a box drawn between analysed frames joins a tracker's track
 * (which becomes a person's track, kept through re-analysis), a box drawn on a frame where the
 * track has one moves it, two keyframes make a new track, each one undo step; and an interpolated
 * MOT export writes every frame between a track's anchors with exactly linear boxes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExport } from '../../../electron/application/export-use-case.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import type { CallInput, CallName, CallResult } from '../../../electron/shared/contract/index.js';
import { addClip } from '../../support/clip-library.js';
import { callReview } from '../../support/review-calls.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
let clipId: number;

const call = <N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> =>
  callReview(store, () => undefined, name, input);
const solution = 'objects';
const keyframe = (trackId: number, frame: number, bbox: CallInput<'review.addKeyframe'>['bbox']) =>
  call('review.addKeyframe', {
    id: clipId,
    solution,
    trackId,
    // Clip frames at 10 fps; the samples are every other frame (5 per second).
    ...(frame % 2 === 0
      ? { frameIndex: frame / 2 }
      : { frameIndex: frame, keyframe: true as const }),
    timeMs: frame * 100,
    label: 'cyclist',
    bbox,
  });

/** Two walkers on samples 0–4 (clip frames 0, 2, … 8), one going right, one going left. */
function analysis(shift = 0) {
  const box = (frameIndex: number, x: number, y: number) => ({
    frameIndex,
    timeMs: frameIndex * 200,
    label: 'person',
    classId: 0,
    score: 0.8,
    bbox: { x: x + shift, y, w: 0.1, h: 0.3 },
  });
  return {
    contentHash: 'hv',
    solution,
    serviceUrl: 'u',
    analysedWidth: 100,
    analysedHeight: 50,
    model: null,
    detections: [0, 1, 2, 3, 4].flatMap((f) => [
      box(f, 0.1 + 0.04 * f, 0.2),
      box(f, 0.7 - 0.04 * f, 0.6),
    ]),
  };
}

const boxes = async () => (await call('review.boxes', { id: clipId, solution })).boxes;
/** What a person sees of the boxes (an undo leaves neutral corrections behind: ids differ). */
const seen = async () =>
  (await boxes()).map((b) => [b.frameIndex, b.label, b.trackId, b.bbox, b.review, b.origin]);
const ofTrack = async (trackId: number) =>
  (await boxes())
    .filter((b) => b.trackId === trackId)
    .sort((a, b) => (a.timeMs ?? 0) - (b.timeMs ?? 0));

beforeEach(async () => {
  t = await tempDir('labeldesk-keyframes-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  clipId = addClip(store, {
    name: 'v.mp4',
    contentHash: 'hv',
    width: 100,
    height: 50,
    fps: 10,
    durationMs: 1000,
  });
  store.results.save(analysis());
});
afterEach(async () => {
  store.close();
  await t.remove();
});

describe('keyframes', () => {
  it('joins a tracker track between samples; the track is kept through re-analysis; undo', async () => {
    const before = await seen();
    const r = await keyframe(1, 3, { x: 0.2, y: 0.3, w: 0.1, h: 0.3 });
    expect(r.changed).toBe(6); // five boxes pinned, one added
    const track = await ofTrack(1);
    expect(track.map((b) => [b.timeMs, b.label])).toEqual([
      [0, 'person'],
      [200, 'person'],
      [300, 'person'], // the track's own class, not the label for new tracks
      [400, 'person'],
      [600, 'person'],
      [800, 'person'],
    ]);
    expect(track[2]).toMatchObject({
      frameIndex: 3,
      keyframe: true,
      origin: 'added',
      review: 'accepted',
    });
    expect(await ofTrack(2)).toHaveLength(5);

    store.results.save(analysis(0.004));
    expect((await ofTrack(1)).map((b) => b.timeMs)).toEqual([0, 200, 300, 400, 600, 800]);

    store.results.save(analysis());
    await call('review.editMany', { id: clipId, solution, edits: r.inverse });
    expect(await seen()).toEqual(before);
  });

  it('moves the track’s box when the keyframe is on a frame where it has one', async () => {
    await keyframe(2, 4, { x: 0.5, y: 0.5, w: 0.2, h: 0.2 });
    const track = await ofTrack(2);
    expect(track).toHaveLength(5);
    expect(track[2]).toMatchObject({ timeMs: 400, bbox: { x: 0.5, y: 0.5, w: 0.2, h: 0.2 } });
  });

  it('two keyframes make a new track, exported as exact linear boxes on every frame between', async () => {
    await keyframe(7, 1, { x: 0.1, y: 0.1, w: 0.1, h: 0.2 });
    await keyframe(7, 7, { x: 0.4, y: 0.4, w: 0.4, h: 0.2 });
    expect((await ofTrack(7)).map((b) => [b.frameIndex, b.keyframe, b.label])).toEqual([
      [1, true, 'cyclist'],
      [7, true, 'cyclist'],
    ]);
    const out = join(t.dir, 'mot');
    await runExport(store, undefined, {
      format: 'mot',
      out,
      solution,
      interpolate: true,
      signal: new AbortController().signal,
    });
    const [sources] = (await readFile(join(out, 'sources.csv'), 'utf8'))
      .trim()
      .split('\n')
      .slice(1);
    const lines = (await readFile(join(out, sources!.split(',')[0]!), 'utf8')).trim().split('\n');
    const rows = lines.map((l) => l.split(',').map(Number));
    const cyclist = rows.filter((r) => r[1] === 7);
    // MOT frames from 1: clip frames 1..7 are 2..8, every one of them.
    expect(cyclist.map((r) => r[0])).toEqual([2, 3, 4, 5, 6, 7, 8]);
    cyclist.forEach((r, i) => {
      // Pixels of the 100 × 50 clip: x 10 → 40, y 5 → 20, w 10 → 40, h 10 → 10, linear.
      expect(r.slice(2, 6)).toEqual([10 + 5 * i, 5 + 2.5 * i, 10 + 5 * i, 10].map((v) => v));
    });
    // The tracker's tracks are filled in too: frames 1..9 (clip frames 0..8), none outside.
    const walker = rows.filter((r) => r[1] === 1).map((r) => r[0]);
    expect(walker).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const frames = rows.map((r) => r[0] as number);
    expect(frames).toEqual([...frames].sort((a, b) => a - b));
  });
});
