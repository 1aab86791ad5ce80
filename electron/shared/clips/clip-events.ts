/**
 * What happened when in a clip: per class, the time ranges in which it is present, read from its
 * tracks after a person's corrections. One implementation for the video review's Events panel and
 * count chart (renderer) and `export --format events` (core), so both always say the same.
 *
 * A range runs from the first to the last sighting of its class; a class unseen for less than
 * `GAP_MS` stays in the same range. "Unseen" is measured between analysed frames: two boxes one
 * sample period apart leave no gap at all, whatever the sampling rate (at 1 frame per second,
 * consecutive sightings are 1 s apart and must not split a range).
 */
/** The fields of a box the events read (a ReviewBox or an exported detection both fit). */
export interface EventBox {
  label: string;
  /** Null or absent: in no track (the tracker did not confirm it), so not an object. */
  trackId?: number | null;
  frameIndex: number;
  /** Between analysed samples (`frameIndex` is then a clip frame): no sample, so no period. */
  keyframe?: true | undefined;
  timeMs: number | null;
  /** Null: a person's box (no model score). */
  score: number | null;
  review?: 'pending' | 'accepted' | 'rejected';
  deleted?: boolean;
}

/** Shorter absences than this do not split a class's range. */
export const GAP_MS = 1000;

/** One track within one range of its class. */
export interface TrackSpan {
  trackId: number;
  startMs: number;
  endMs: number;
  boxes: number;
  meanScore: number;
}

/** A class present from `startMs` to `endMs`. */
export interface ClipEvent {
  label: string;
  startMs: number;
  endMs: number;
  boxes: number;
  meanScore: number;
  /** The tracks seen in the range, by their first box in it (then by id). */
  tracks: TrackSpan[];
}

/**
 * One class's sightings (boxes a person has not rejected or deleted, in a track, at a known time)
 * as columns: the review opens on these once, with its code still cold, and a few arrays of
 * numbers are read and sorted far quicker than tens of thousands of small objects.
 */
interface Sightings {
  times: number[];
  tracks: number[];
  scores: number[];
}

/**
 * Per class, its sightings in time order (then by track), and the sample period: one pass over
 * the boxes (a long clip's boxes mostly arrive in time order, which the ordering keeps).
 */
function readSightings(boxes: readonly EventBox[]): {
  byLabel: Map<string, Sightings>;
  periodMs: number;
} {
  const byLabel = new Map<string, Sightings>();
  let [first, firstMs, last, lastMs] = [Infinity, 0, -Infinity, 0];
  // Boxes come grouped by time, so the class often repeats: one map lookup per change of class.
  let label: string | undefined;
  let list: Sightings | undefined;
  // Indexed: a page opens a clip with this code still cold, where `for…of` allocates per element.
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i] as EventBox;
    const timeMs = b.timeMs;
    if (timeMs === null) continue;
    const frame = b.frameIndex;
    if (b.keyframe !== true) {
      if (frame < first) {
        first = frame;
        firstMs = timeMs;
      }
      if (frame > last) {
        last = frame;
        lastMs = timeMs;
      }
    }
    const trackId = b.trackId;
    if (b.deleted || b.review === 'rejected' || trackId === null || trackId === undefined) continue;
    if (b.label !== label || !list) {
      label = b.label;
      list = byLabel.get(label);
      if (!list) byLabel.set(label, (list = { times: [], tracks: [], scores: [] }));
    }
    list.times.push(timeMs);
    list.tracks.push(trackId);
    // A person's box has no score: it is as sure as a box gets.
    list.scores.push(b.score ?? 1);
  }
  for (const s of byLabel.values()) inSightingOrder(s);
  return { byLabel, periodMs: periodBetween(first, firstMs, last, lastMs) };
}

/**
 * Sorts by time, then track (stable). Boxes read from the library come in time order, and then
 * only the few boxes at each time are put in track order (a general sort of 50,000 boxes with a
 * two-key comparison was the slowest part of the Events); any other order is sorted in full.
 */
function inSightingOrder(s: Sightings): void {
  const { times, tracks, scores } = s;
  // One pass: the insertions move only tracks and scores within one time, so the times read
  // here are the boxes' own, and one out of order sends the whole list to the full sort.
  for (let i = 1; i < times.length; i++) {
    const t = times[i] as number;
    if ((times[i - 1] as number) > t) return sortFully(s);
    const track = tracks[i] as number;
    const score = scores[i] as number;
    let j = i - 1;
    for (; j >= 0 && times[j] === t && (tracks[j] as number) > track; j--) {
      tracks[j + 1] = tracks[j] as number;
      scores[j + 1] = scores[j] as number;
    }
    tracks[j + 1] = track;
    scores[j + 1] = score;
  }
}

function sortFully(s: Sightings): void {
  const { times, tracks, scores } = s;
  const order = times.map((_, i) => i);
  order.sort(
    (a, b) =>
      (times[a] as number) - (times[b] as number) || (tracks[a] as number) - (tracks[b] as number),
  );
  s.times = order.map((i) => times[i] as number);
  s.tracks = order.map((i) => tracks[i] as number);
  s.scores = order.map((i) => scores[i] as number);
}

/** The period between two sample indices' times; 0 when they are one frame, or none. */
function periodBetween(first: number, firstMs: number, last: number, lastMs: number): number {
  if (!(first < last)) return 0;
  const period = (lastMs - firstMs) / (last - first);
  return period > 0 ? period : 0;
}

/**
 * The time between two analysed frames: samples are evenly spaced, so the boxes with the lowest
 * and highest sample index give it exactly (a person's keyframe between samples has no sample
 * index and is left out here, though it counts as a sighting). 0 when every box is on one frame.
 */
export function samplePeriodMs(boxes: readonly EventBox[]): number {
  return readSightings(boxes).periodMs;
}

/** The events of one clip, in time order (then by class). */
export function clipEvents(boxes: readonly EventBox[]): ClipEvent[] {
  const { byLabel, periodMs } = readSightings(boxes);
  return eventsOf(byLabel, periodMs);
}

/** The events and the count chart's data of one clip, its boxes read once. */
export function clipSummary(
  boxes: readonly EventBox[],
  frameTimesMs: readonly number[] = [],
): { events: ClipEvent[]; counts: CountsOverTime } {
  const { byLabel, periodMs } = readSightings(boxes);
  return { events: eventsOf(byLabel, periodMs), counts: countsOf(byLabel, frameTimesMs) };
}

function eventsOf(byLabel: ReadonlyMap<string, Sightings>, period: number): ClipEvent[] {
  const events: ClipEvent[] = [];
  for (const [label, s] of byLabel) {
    const { times, tracks, scores } = s;
    // One walk: each sighting is added to the range open, which closes at a gap (a second walk
    // to find the gaps first cost a pass over every sighting of a long clip, with its code cold).
    let range = openRange(0);
    for (let i = 0; i < times.length; i++) {
      const timeMs = times[i] as number;
      if (i > range.from && timeMs - (times[i - 1] as number) - period >= GAP_MS) {
        events.push(closeRange(label, s, range, i));
        range = openRange(i);
      }
      const trackId = tracks[i] as number;
      const score = scores[i] as number;
      range.scoreSum += score;
      const span = range.spans.get(trackId);
      if (span) {
        span.endMs = timeMs;
        span.boxes++;
        span.scoreSum += score;
      } else {
        range.spans.set(trackId, {
          trackId,
          startMs: timeMs,
          endMs: timeMs,
          boxes: 1,
          meanScore: 0,
          scoreSum: score,
        });
      }
    }
    if (times.length > 0) events.push(closeRange(label, s, range, times.length));
  }
  return events.sort((a, b) => a.startMs - b.startMs || (a.label < b.label ? -1 : 1));
}

/** A range being read: its first sighting, its tracks so far, and the sum of its scores. */
interface OpenRange {
  from: number;
  spans: Map<number, TrackSpan & { scoreSum: number }>;
  scoreSum: number;
}

const openRange = (from: number): OpenRange => ({ from, spans: new Map(), scoreSum: 0 });

/** The event of sightings `range.from` to `to` (excluded): all of one class and one range. */
function closeRange(label: string, s: Sightings, range: OpenRange, to: number): ClipEvent {
  const { from } = range;
  const tracks = [...range.spans.values()]
    .map(({ scoreSum: sum, ...span }) => ({ ...span, meanScore: sum / span.boxes }))
    .sort((a, b) => a.startMs - b.startMs || a.trackId - b.trackId);
  return {
    label,
    startMs: s.times[from] as number,
    endMs: s.times[to - 1] as number,
    boxes: to - from,
    meanScore: range.scoreSum / (to - from),
    tracks,
  };
}

/** Per class, how many of its tracks are seen on each analysed frame. */
export interface CountsOverTime {
  /** The frames' times, ascending. */
  timesMs: number[];
  /** One series per class (by name), a count for each of `timesMs`. */
  series: { label: string; counts: number[] }[];
}

/**
 * The count chart's data: every time in `frameTimesMs` (so frames where nothing was seen count 0)
 * and every time a counted box is on.
 */
export function countsOverTime(
  boxes: readonly EventBox[],
  frameTimesMs: readonly number[] = [],
): CountsOverTime {
  return countsOf(readSightings(boxes).byLabel, frameTimesMs);
}

/** Whether `times` ascend strictly. */
function ascending(times: readonly number[]): boolean {
  for (let i = 1; i < times.length; i++) {
    if ((times[i] as number) <= (times[i - 1] as number)) return false;
  }
  return true;
}

/** The frames' times and the sightings', ascending, each once. */
function mergedTimes(byLabel: ReadonlyMap<string, Sightings>, frameTimesMs: readonly number[]) {
  const times = new Set(frameTimesMs);
  for (const s of byLabel.values()) for (const t of s.times) times.add(t);
  return [...times].sort((a, b) => a - b);
}

/**
 * Per class, its count at each of `timesMs` (ascending); null as soon as a sighting is at none of
 * them. Both in time order: one walk along the times (no lookup per box). Sorted by time then
 * track, a track counts once per time however many boxes it has there.
 */
function countAlong(
  byLabel: ReadonlyMap<string, Sightings>,
  timesMs: readonly number[],
): CountsOverTime['series'] | null {
  const series: CountsOverTime['series'] = [];
  for (const [label, { times, tracks }] of [...byLabel].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const counts = new Array<number>(timesMs.length).fill(0);
    let j = 0;
    for (let i = 0; i < times.length; i++) {
      const t = times[i] as number;
      while (j < timesMs.length && (timesMs[j] as number) < t) j++;
      if (timesMs[j] !== t) return null;
      if (i === 0 || times[i - 1] !== t || tracks[i - 1] !== tracks[i]) {
        counts[j] = (counts[j] as number) + 1;
      }
    }
    series.push({ label, counts });
  }
  return series;
}

function countsOf(
  byLabel: ReadonlyMap<string, Sightings>,
  frameTimesMs: readonly number[],
): CountsOverTime {
  // Usually the frames' times are given ascending and every sighting is on one of them: then
  // they are the times as they are (no set of tens of thousands of times to build and sort).
  const onFrames = ascending(frameTimesMs) ? countAlong(byLabel, frameTimesMs) : null;
  if (onFrames) return { timesMs: [...frameTimesMs], series: onFrames };
  const timesMs = mergedTimes(byLabel, frameTimesMs);
  return { timesMs, series: countAlong(byLabel, timesMs) ?? [] };
}
