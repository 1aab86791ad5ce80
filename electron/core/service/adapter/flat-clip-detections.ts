/**
 * A clip result given as one flat list of detections, each carrying its own frame index or time
 * (`result.detections: [{frame, timestampMs, label, …}]`, as AWS Rekognition's video results do),
 * grouped into the frames read-video-result.ts reads. A frame with nothing in it is not listed in
 * such a result: between listed indexes on a regular step, the missing frames are put back empty
 * (so a learnt per-frame cost counts them); after the last listed one nothing can tell.
 */
import type { Notes } from './notes.js';
import { firstPresent, isObject, looseNumberOf, type Json } from './read-values.js';

export const FRAME_INDEX_NAMES = ['index', 'frame', 'frameIndex', 'frame_index', 'idx'];
export const FRAME_TIME_NAMES = [
  't',
  'time',
  'timestamp',
  'ts',
  'seconds',
  'time_ms',
  'timestampMs',
  'timestamp_ms',
  'Timestamp',
];

/** Beyond this many frames put back, the indexes are not a sampling grid (source frame numbers). */
const MAX_FILLED = 100_000;

interface Group {
  key: number;
  index: { name: string; value: number } | null;
  time: { name: string; value: number } | null;
  detections: Json[];
}

/** The frames of a flat list, or null when `raw` holds none or an item places no frame. */
export function framesOfFlatList(raw: Json, notes: Notes): Json[] | null {
  const list = raw.detections ?? raw.objects;
  if (!Array.isArray(list) || list.length === 0) return null;
  const groups = new Map<number, Group>();
  let byIndex: boolean | null = null;
  for (const item of list as unknown[]) {
    if (!isObject(item)) return null;
    const index = named(item, FRAME_INDEX_NAMES);
    const time = named(item, FRAME_TIME_NAMES);
    byIndex ??= index !== null;
    const key = byIndex ? index?.value : time?.value;
    if (key === undefined) return null;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, index, time, detections: [] }));
    group.detections.push(item);
  }
  const sorted = [...groups.values()].sort((a, b) => a.key - b.key);
  const field = raw.detections !== undefined ? 'detections' : 'objects';
  const first = sorted[0]?.index ?? sorted[0]?.time;
  notes.understoodAs(
    'job.result.frames',
    `a flat list \`${field}\` grouped by \`${first?.name ?? '?'}\` (frames without detections are not listed)`,
  );
  return (byIndex ? withEmptyFrames(sorted) : sorted).map(frameOf);
}

function named(item: Json, names: readonly string[]): { name: string; value: number } | null {
  const found = firstPresent(item, names);
  const value = found ? looseNumberOf(found.value) : null;
  return found && value !== null ? { name: found.name, value } : null;
}

function frameOf(g: Group): Json {
  const frame: Json = { detections: g.detections };
  if (g.index) frame[g.index.name] = g.index.value;
  if (g.time) frame[g.time.name] = g.time.value;
  return frame;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Frames 0, step, 2·step … up to the last listed, the missing ones empty with a time between. */
function withEmptyFrames(groups: readonly Group[]): Group[] {
  const keys = groups.map((g) => g.key);
  if (!keys.every((k) => Number.isInteger(k) && k >= 0)) return [...groups];
  const step = keys.reduce(gcd, 0);
  const last = keys[keys.length - 1] ?? 0;
  if (step === 0 || last / step + 1 > MAX_FILLED || last / step + 1 === groups.length)
    return [...groups];
  const byKey = new Map(groups.map((g) => [g.key, g]));
  const timed = groups.filter((g) => g.time !== null);
  const a = timed[0];
  const b = timed[timed.length - 1];
  const perIndex =
    a?.time && b?.time && b.key > a.key ? (b.time.value - a.time.value) / (b.key - a.key) : null;
  const indexName = groups[0]?.index?.name ?? 'index';
  const out: Group[] = [];
  for (let key = 0; key <= last; key += step) {
    const known = byKey.get(key);
    if (known) {
      out.push(known);
      continue;
    }
    const time =
      a?.time && perIndex !== null
        ? { name: a.time.name, value: a.time.value + (key - a.key) * perIndex }
        : null;
    out.push({ key, index: { name: indexName, value: key }, time, detections: [] });
  }
  return out;
}
