/**
 * A finished job's `result`: frames with their detections. Frame indexes and times are read in
 * any recognised form; a time in seconds or milliseconds is decided against the clip's duration.
 * Box forms are decided once for the whole clip.
 */
import type { AnswerContext, Detection, VideoFrame, VideoResult } from './adapter-types.js';
import { FRAME_INDEX_NAMES, FRAME_TIME_NAMES, framesOfFlatList } from './flat-clip-detections.js';
import type { Notes, Problems } from './notes.js';
import { readDetections } from './read-detections.js';
import { firstPresent, isObject, looseNumberOf, type Json } from './read-values.js';

export function readVideoResult(
  raw: Json,
  ctx: AnswerContext,
  notes: Notes,
  problems: Problems,
): VideoResult | null {
  const framesRaw = raw.frames ?? raw.results ?? framesOfFlatList(raw, notes);
  if (!Array.isArray(framesRaw)) {
    problems.add(
      'job.result.frames',
      'expected the list of analysed frames (or a list of detections each with its frame index or time)',
    );
    return null;
  }
  if (raw.frames === undefined && raw.results !== undefined)
    notes.understoodAs('job.result.frames', '`results`');
  const frames = framesRaw.map((f: unknown): Json => (isObject(f) ? f : {}));
  const all: unknown[] = [];
  const counts: number[] = [];
  for (const f of frames) {
    const list = f.detections ?? f.objects ?? [];
    const items = Array.isArray(list) ? (list as unknown[]) : [];
    counts.push(items.length);
    for (const d of items) all.push(d);
  }
  const analysedWidth = looseNumberOf(raw.analysedWidth ?? raw.analyzedWidth);
  const analysedHeight = looseNumberOf(raw.analysedHeight ?? raw.analyzedHeight);
  const given =
    analysedWidth && analysedHeight ? { width: analysedWidth, height: analysedHeight } : null;
  const read = readDetections(all, 'job.result.frames[].detections', given, ctx, notes, problems);
  if (!read) return null;
  const durationMs = looseNumberOf(raw.durationMs);
  const sampledFps = looseNumberOf(raw.sampledFps ?? raw.sampleFps);
  const times = readTimes(frames, ctx.clipDurationMs ?? durationMs, notes);
  let next = 0;
  const out: VideoFrame[] = frames.map((f, i) => {
    const count = counts[i] ?? 0;
    const detections: Detection[] = read.detections.slice(next, next + count);
    next += count;
    return { index: indexOf(f, i, notes), timeMs: times[i] ?? null, detections };
  });
  const size = given ?? read.derivedSize;
  return {
    fps: looseNumberOf(raw.fps),
    sampledFps,
    durationMs,
    width: looseNumberOf(raw.width),
    height: looseNumberOf(raw.height),
    analysedWidth: size?.width ?? null,
    analysedHeight: size?.height ?? null,
    frames: out,
  };
}

function indexOf(frame: Json, position: number, notes: Notes): number {
  if (typeof frame.index === 'number') return frame.index;
  const found = firstPresent(frame, FRAME_INDEX_NAMES);
  const v = found ? looseNumberOf(found.value) : null;
  if (found && v !== null) {
    notes.understoodAs('job.result.frames[].index', `\`${found.name}\``);
    return v;
  }
  notes.notPublished('job.result.frames[].index', 'the frame’s position in the list');
  return position;
}

/** Milliseconds per frame; a unit-less time is seconds when the clip's duration says so. */
function readTimes(
  frames: readonly Json[],
  clipDurationMs: number | null,
  notes: Notes,
): (number | null)[] {
  if (frames.every((f) => typeof f.timeMs === 'number'))
    return frames.map((f) => f.timeMs as number);
  let name: string | null = null;
  const values = frames.map((f) => {
    if (typeof f.timeMs === 'number') return f.timeMs;
    const found = firstPresent(f, FRAME_TIME_NAMES);
    const v = found ? looseNumberOf(found.value) : null;
    if (found && v !== null) name ??= found.name;
    return v;
  });
  if (name === null) {
    notes.notPublished('job.result.frames[].timeMs', 'no time (the frame index places it)');
    return values;
  }
  const max = Math.max(0, ...values.map((v) => v ?? 0));
  // A name that says milliseconds (`timestampMs`, `time_ms`) is taken at its word.
  const seconds = /ms$/i.test(name)
    ? false
    : clipDurationMs !== null && clipDurationMs > 0
      ? max <= clipDurationMs / 1000 + 1
      : values.some((v) => v !== null && !Number.isInteger(v));
  notes.understoodAs(
    'job.result.frames[].timeMs',
    `\`${name}\` in ${seconds ? 'seconds' : 'milliseconds'}${clipDurationMs ? ' (against the clip’s duration)' : ''}`,
  );
  return seconds ? values.map((v) => (v === null ? null : v * 1000)) : values;
}
