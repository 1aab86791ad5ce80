/**
 * The tracker's part that depends only on what the model returned: the tracks of a clip's model
 * boxes, by detection id. It is the expensive part (seconds of a UI thread on a long clip), so it
 * runs once per analysis, off the main thread where one is at hand, and is cached by a fingerprint
 * of the model's boxes. People's edits are laid over it cheaply (see review/place-tracks.ts).
 * The boxes travel packed in typed arrays: a worker receives them without copying object by object.
 */
import type { DetectionRow } from '../store/store-types.js';
import { assignTracks, type TrackInput } from './assign-tracks.js';

/** A clip's model boxes in the tracker's order of arrival, in transferable arrays. */
export interface PackedBoxes {
  detectionIds: Float64Array;
  frames: Int32Array;
  /** x, y, w, h of each box. */
  boxes: Float64Array;
  labels: Uint16Array;
  labelNames: string[];
  /** The model's score of each box (NaN: none given). */
  scores: Float32Array;
  /** Analysed frames per second of the clip, from the boxes' times (0: unknown). */
  fps: number;
}

/** The rank (1 = first by its first box) of each model box's track; absent: in no track. */
export interface ModelTracks {
  fingerprint: string;
  rankOf: ReadonlyMap<number, number>;
}

type ModelRow = Pick<DetectionRow, 'id' | 'frameIndex' | 'label' | 'bbox'> &
  Partial<Pick<DetectionRow, 'score' | 'timeMs'>>;

/**
 * Bumped when the tracker changes what it answers: it is part of the fingerprint, so tracks kept
 * from an older tracker (in memory or on disk) are not reused.
 */
const TRACKER_VERSION = 3;

export function packModelBoxes(rows: readonly ModelRow[]): PackedBoxes {
  const n = rows.length;
  const packed: PackedBoxes = {
    detectionIds: new Float64Array(n),
    frames: new Int32Array(n),
    boxes: new Float64Array(n * 4),
    labels: new Uint16Array(n),
    labelNames: [],
    scores: new Float32Array(n).fill(NaN),
    fps: samplingRate(rows),
  };
  const labelIndex = new Map<string, number>();
  rows.forEach((r, i) => {
    let l = labelIndex.get(r.label);
    if (l === undefined) {
      l = packed.labelNames.push(r.label) - 1;
      labelIndex.set(r.label, l);
    }
    packed.detectionIds[i] = r.id;
    packed.frames[i] = r.frameIndex;
    packed.labels[i] = l;
    if (r.score !== undefined && r.score !== null) packed.scores[i] = r.score;
    packed.boxes.set([r.bbox.x, r.bbox.y, r.bbox.w, r.bbox.h], i * 4);
  });
  return packed;
}

/** The track rank of each packed box (0: in no track). Runs on whichever thread calls it. */
export function rankPackedTracks(p: PackedBoxes): Int32Array {
  const input: TrackInput[] = [];
  const fps = p.fps > 0 ? p.fps : undefined;
  for (let i = 0; i < p.frames.length; i++) {
    const b = p.boxes;
    const score = p.scores[i] as number;
    input.push({
      ...(Number.isNaN(score) ? {} : { score }),
      ...(fps === undefined ? {} : { fps }),
      frameIndex: p.frames[i] as number,
      label: p.labelNames[p.labels[i] as number] as string,
      bbox: {
        x: b[i * 4] as number,
        y: b[i * 4 + 1] as number,
        w: b[i * 4 + 2] as number,
        h: b[i * 4 + 3] as number,
      },
    });
  }
  return Int32Array.from(assignTracks(input), (id) => id ?? 0);
}

export function modelTracksFrom(
  p: PackedBoxes,
  ranks: Int32Array,
  fingerprint: string,
): ModelTracks {
  const rankOf = new Map<number, number>();
  ranks.forEach((r, i) => {
    if (r > 0) rankOf.set(p.detectionIds[i] as number, r);
  });
  return { fingerprint, rankOf };
}

/**
 * Names the model's boxes exactly (ids, frames, labels, positions): a re-analysis, even one that
 * reuses the detection ids, gives another fingerprint. FNV-1a over the values, in a few ms for 50,000.
 */
export function fingerprintOf(rows: readonly ModelRow[]): string {
  let h = 0x811c9dc5;
  const mix = (v: number) => {
    h = Math.imul(h ^ (v | 0), 0x01000193);
    h = Math.imul(h ^ ((v * 1e6) | 0), 0x01000193);
  };
  mix(TRACKER_VERSION);
  for (const r of rows) {
    mix(r.id);
    mix(r.frameIndex);
    mix(r.bbox.x);
    mix(r.bbox.y);
    mix(r.bbox.w);
    mix(r.bbox.h);
    for (let i = 0; i < r.label.length; i++) mix(r.label.charCodeAt(i));
  }
  return `${rows.length}:${(h >>> 0).toString(16)}`;
}

/**
 * Analysed frames per second: frames over time between the first and last analysed frame that
 * carry a time (0 when fewer than two do). Clips are sampled at a steady rate.
 */
export function samplingRate(rows: readonly ModelRow[]): number {
  let first: ModelRow | undefined;
  let last: ModelRow | undefined;
  for (const r of rows) {
    if (r.timeMs === undefined || r.timeMs === null) continue;
    if (!first || r.frameIndex < first.frameIndex) first = r;
    if (!last || r.frameIndex > last.frameIndex) last = r;
  }
  if (!first || !last || last.frameIndex === first.frameIndex) return 0;
  const ms = (last.timeMs as number) - (first.timeMs as number);
  return ms > 0 ? ((last.frameIndex - first.frameIndex) * 1000) / ms : 0;
}

/** Computes the model's tracks here and now (exports, the CLI, tests; the app uses a worker). */
export function trackModelBoxes(rows: readonly ModelRow[]): ModelTracks {
  const packed = packModelBoxes(rows);
  return modelTracksFrom(packed, rankPackedTracks(packed), fingerprintOf(rows));
}
