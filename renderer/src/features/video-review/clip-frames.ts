/**
 * A clip's analysed (sampled) frames and their boxes, as the video review needs them: the frame
 * nearest a time, the next or previous frame with a shown box, and per-class density for the timeline.
 */
import type { ReviewBox, ReviewEdit } from '@shared/contract/review-schemas.js';
import { placeKey } from '@shared/geometry/frame-place.js';

export interface AnalysedFrame {
  /** The sample's index (ReviewBox.frameIndex); with `keyframe`, the clip frame. */
  index: number;
  /** A frame between samples with a person's keyframe on it (no sample). */
  keyframe?: true;
  timeMs: number;
  boxes: ReviewBox[];
}

/**
 * The analysed frames in time order: those that have boxes, and those in `known` (index → time:
 * frames seen earlier, kept when a person deleted their last box so they can still be edited).
 */
export function analysedFrames(
  boxes: readonly ReviewBox[],
  known: ReadonlyMap<number, number> = new Map(),
): AnalysedFrame[] {
  // Keyed by place: sample 5 and a keyframe on clip frame 5 are two frames.
  const byIndex = new Map<number, AnalysedFrame>();
  known.forEach((timeMs, index) => byIndex.set(index, { index, timeMs, boxes: [] }));
  // Boxes come grouped by frame: a map lookup only when the frame changes, and a new frame takes
  // its run of boxes in one slice (no array grown box by box). Indexed loops here and below: a
  // clip opens with this code cold, where `for…of` allocates per element.
  const n = boxes.length;
  for (let i = 0; i < n; i++) {
    const b = boxes[i] as ReviewBox;
    const timeMs = b.timeMs;
    if (timeMs === null) continue;
    const index = b.frameIndex;
    const keyframe = b.keyframe;
    let end = i + 1;
    for (; end < n; end++) {
      const next = boxes[end] as ReviewBox;
      if (next.frameIndex !== index || next.keyframe !== keyframe || next.timeMs === null) break;
    }
    const key = placeKey(index, keyframe);
    const f = byIndex.get(key);
    if (f) for (let j = i; j < end; j++) f.boxes.push(boxes[j] as ReviewBox);
    else
      byIndex.set(
        key,
        keyframe
          ? { index, keyframe, timeMs, boxes: boxes.slice(i, end) }
          : { index, timeMs, boxes: boxes.slice(i, end) },
      );
    i = end - 1;
  }
  return inTimeOrder([...byIndex.values()]);
}

/** Sorted by time; a list already in order (the usual case) is only checked. */
function inTimeOrder(frames: AnalysedFrame[]): AnalysedFrame[] {
  for (let i = 1; i < frames.length; i++) {
    if ((frames[i - 1] as AnalysedFrame).timeMs > (frames[i] as AnalysedFrame).timeMs) {
      return frames.sort((a, b) => a.timeMs - b.timeMs);
    }
  }
  return frames;
}

/**
 * `frames` (in time order, with boxes) and an empty frame for each of `empty` (index → time, none
 * of them in `frames`), in time order: the boxes are grouped once, not again for the empty samples.
 */
export function withEmptyFrames(
  frames: readonly AnalysedFrame[],
  empty: ReadonlyMap<number, number>,
): AnalysedFrame[] {
  const out = [...frames];
  for (const [index, timeMs] of empty) out.push({ index, timeMs, boxes: [] });
  return empty.size === 0 ? out : out.sort((a, b) => a.timeMs - b.timeMs);
}

/** More samples than this are not filled in (a pathological clip must not stall the screen). */
const MAX_SAMPLES = 100_000;

/** How a clip was sampled: every `period` ms from sample `from`, until `endMs`. */
export interface SamplePlan {
  first: number;
  firstMs: number;
  period: number;
  from: number;
  endMs: number;
}

/**
 * The sampling of a clip, from the frames known with boxes (index → time, in any order): samples
 * are evenly spaced, so the lowest and highest sample index give the period. A keyframe between
 * samples is no sample: it tells nothing of the period. Null when fewer than two samples are known.
 */
export function samplePlan(
  known: ReadonlyMap<number, number>,
  durationMs: number,
): SamplePlan | null {
  let [first, firstMs, last, lastMs] = [Infinity, 0, -Infinity, 0];
  known.forEach((timeMs, index) => {
    if (index < first) [first, firstMs] = [index, timeMs];
    if (index > last) [last, lastMs] = [index, timeMs];
  });
  if (!(first < last)) return null;
  const period = (lastMs - firstMs) / (last - first);
  if (!(period > 0)) return null;
  const from = Math.max(0, first - Math.floor(firstMs / period));
  return { first, firstMs, period, from, endMs: Math.max(durationMs, lastMs + 1) };
}

/** The time of sample `i` on the clip's frame grid (`fps`; unrounded when it is not known). */
function sampleTime(plan: SamplePlan, i: number, fps: number): number {
  const t = plan.firstMs + (i - plan.first) * plan.period;
  return fps > 0 ? (Math.round((t * fps) / 1000) * 1000) / fps : t;
}

/** Calls `f` for each sample of the plan from the clip's start (at most MAX_SAMPLES). */
function eachSample(plan: SamplePlan, f: (i: number) => void): void {
  for (let i = plan.from; i - plan.from < MAX_SAMPLES; i++) {
    const t = plan.firstMs + (i - plan.first) * plan.period;
    if (t >= plan.endMs) break;
    if (t >= 0) f(i);
  }
}

/**
 * The analysed frames without boxes (index → time): every other sample of the clip from its start
 * to `durationMs`, on the clip's frame grid (`fps`), and the frames in `known` (index → time: seen
 * with boxes earlier, kept at their own times) that have none now. One pass over the samples: a
 * 2-hour clip has 7,200, usually every one with boxes.
 */
export function emptyFrameTimes(
  known: ReadonlyMap<number, number>,
  withBoxes: readonly AnalysedFrame[],
  durationMs: number,
  fps: number,
): Map<number, number> {
  const has = new Set<number>();
  for (let i = 0; i < withBoxes.length; i++) {
    const f = withBoxes[i] as AnalysedFrame;
    if (!f.keyframe) has.add(f.index);
  }
  const out = new Map<number, number>();
  const plan = samplePlan(known, durationMs);
  if (plan) {
    eachSample(plan, (i) => {
      if (!has.has(i)) out.set(i, known.get(i) ?? sampleTime(plan, i, fps));
    });
  }
  // `known` holds every frame with boxes too: only a visit with deleted frames has more.
  if (known.size > has.size) {
    for (const [index, timeMs] of known) {
      if (!has.has(index) && !out.has(index)) out.set(index, timeMs);
    }
  }
  return out;
}

/**
 * Whether the times of the samples without boxes differ between two frame rates (a sample with
 * boxes keeps its own time): the frame rate usually arrives after the boxes, and on a clip with
 * boxes on every sample, or sampled on its frame grid, it moves nothing (no frames to build again).
 */
export function gridMoves(
  plan: SamplePlan | null,
  known: ReadonlyMap<number, number>,
  fpsA: number,
  fpsB: number,
): boolean {
  if (!plan || fpsA === fpsB) return false;
  let moves = false;
  eachSample(plan, (i) => {
    moves ||= !known.has(i) && sampleTime(plan, i, fpsA) !== sampleTime(plan, i, fpsB);
  });
  return moves;
}

/** The frame nearest `timeMs` (binary search: called on every video frame). */
export function nearestFrame(
  frames: readonly AnalysedFrame[],
  timeMs: number,
): AnalysedFrame | undefined {
  let lo = 0;
  let hi = frames.length - 1;
  if (hi < 0) return undefined;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((frames[mid] as AnalysedFrame).timeMs < timeMs) lo = mid + 1;
    else hi = mid;
  }
  const after = frames[lo] as AnalysedFrame;
  const before = frames[lo - 1];
  return before && timeMs - before.timeMs <= after.timeMs - timeMs ? before : after;
}

/** The next (`step` 1) or previous (-1) frame after `timeMs` with a shown box. */
export function detectionFrom(
  frames: readonly AnalysedFrame[],
  timeMs: number,
  step: 1 | -1,
  shown: (b: ReviewBox) => boolean,
): AnalysedFrame | undefined {
  // Half a millisecond of slack: a seek lands on a time the element rounds.
  const ahead = (f: AnalysedFrame) =>
    step === 1 ? f.timeMs > timeMs + 0.5 : f.timeMs < timeMs - 0.5;
  const list = step === 1 ? frames : [...frames].reverse();
  return list.find((f) => ahead(f) && f.boxes.some(shown));
}

/** A frame is reviewed when a person decided on every box of it. */
export function isReviewed(frame: AnalysedFrame): boolean {
  // A loop, not `every`: the timeline asks this of every frame of a long clip as it opens (cold).
  const { boxes } = frame;
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i] as ReviewBox;
    if (b.review === 'pending' && b.origin === 'model') return false;
  }
  return true;
}

/** One class's row of the timeline: the frames it is on, and its count of shown boxes on each. */
export interface DensityRow {
  timesMs: number[];
  counts: number[];
}

/**
 * Per class, each frame's time and count of shown boxes (frames in time order), as two columns of
 * numbers: a 2-hour clip has tens of thousands of such points, which as objects are as many more
 * for the page to allocate and keep as it opens.
 */
export function densityByClass(
  frames: readonly AnalysedFrame[],
  shown: (b: ReviewBox) => boolean,
): Map<string, DensityRow> {
  const rows = new Map<string, Row>();
  // A frame's boxes of one class add up in the row's last count; the row of the class before is
  // kept, as a frame's boxes often repeat it (a map lookup only when the class changes).
  let label: string | undefined;
  let row: Row | undefined;
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i] as AnalysedFrame;
    for (let j = 0; j < f.boxes.length; j++) {
      const b = f.boxes[j] as ReviewBox;
      if (!shown(b)) continue;
      if (b.label !== label || !row) {
        label = b.label;
        row = rows.get(label);
        if (!row) rows.set(label, (row = { timesMs: [], counts: [], frame: null }));
      }
      const last = row.counts.length - 1;
      if (row.frame === f) row.counts[last] = (row.counts[last] as number) + 1;
      else {
        row.timesMs.push(f.timeMs);
        row.counts.push(1);
        row.frame = f;
      }
    }
  }
  const out = new Map<string, DensityRow>();
  rows.forEach(({ timesMs, counts }, name) => out.set(name, { timesMs, counts }));
  return out;
}

/** A row being counted, with the frame its last count is of. */
interface Row extends DensityRow {
  frame: AnalysedFrame | null;
}

/**
 * The frames some edits touched (an undo or redo), in time order: a box they name, found in the
 * boxes after them, or a box they add. A box they deleted is gone and names no frame.
 */
export function editedFrames(
  edits: readonly ReviewEdit[],
  boxes: readonly ReviewBox[],
): { index: number; keyframe?: true; timeMs: number }[] {
  const byDetection = new Map<number, ReviewBox>();
  const byCorrection = new Map<number, ReviewBox>();
  for (const b of boxes) {
    if (b.detectionId !== null) byDetection.set(b.detectionId, b);
    if (b.correctionId !== null) byCorrection.set(b.correctionId, b);
  }
  const frames = new Map<number, { index: number; keyframe?: true; timeMs: number }>();
  const note = (index: number, keyframe: true | undefined, timeMs: number) =>
    frames.set(
      placeKey(index, keyframe),
      keyframe ? { index, keyframe, timeMs } : { index, timeMs },
    );
  for (const e of edits) {
    if (e.kind === 'add') {
      if (e.timeMs !== null) note(e.frameIndex, e.keyframe, e.timeMs);
      continue;
    }
    const { detectionId: d, correctionId: c } = e.box;
    const b =
      (c !== null ? byCorrection.get(c) : undefined) ??
      (d !== null ? byDetection.get(d) : undefined);
    if (b && b.timeMs !== null) note(b.frameIndex, b.keyframe, b.timeMs);
  }
  return [...frames.values()].sort((a, b) => a.timeMs - b.timeMs);
}
