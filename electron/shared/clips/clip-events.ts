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
import { isOffSample } from '../geometry/track-interpolation.js';

/** The fields of a box the events read (a ReviewBox or an exported detection both fit). */
export interface EventBox {
  label: string;
  /** Null or absent: in no track (the tracker did not confirm it), so not an object. */
  trackId?: number | null;
  frameIndex: number;
  timeMs: number | null;
  score: number;
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

interface Sighting {
  trackId: number;
  timeMs: number;
  score: number;
}

/**
 * A box a person has not rejected or deleted, in a track, at a known time (as a small object of
 * its own: sorting and reading these is much quicker than the boxes with all their fields).
 */
function sightingOf(b: EventBox): Sighting | null {
  if (b.deleted || b.review === 'rejected') return null;
  if (b.trackId === null || b.trackId === undefined || b.timeMs === null) return null;
  return { trackId: b.trackId, timeMs: b.timeMs, score: b.score };
}

/**
 * Per class, its sightings in time order (then by track): one pass and one sort, shared by the
 * events and the counts (a long clip's boxes mostly arrive in time order, which the sort keeps).
 */
function sightingsByLabel(boxes: readonly EventBox[]): Map<string, Sighting[]> {
  const byLabel = new Map<string, Sighting[]>();
  for (const b of boxes) {
    const s = sightingOf(b);
    if (!s) continue;
    const list = byLabel.get(b.label);
    if (list) list.push(s);
    else byLabel.set(b.label, [s]);
  }
  for (const list of byLabel.values()) inSightingOrder(list);
  return byLabel;
}

/**
 * Sorts by time, then track (stable). Boxes read from the library come in time order, and then
 * only the few boxes at each time are put in track order (a general sort of 50,000 boxes with a
 * two-key comparison was the slowest part of the Events); any other order is sorted in full.
 */
function inSightingOrder(list: Sighting[]): void {
  for (let i = 1; i < list.length; i++) {
    if ((list[i - 1] as Sighting).timeMs > (list[i] as Sighting).timeMs) {
      list.sort((a, b) => a.timeMs - b.timeMs || a.trackId - b.trackId);
      return;
    }
  }
  for (let i = 1; i < list.length; i++) {
    const s = list[i] as Sighting;
    let j = i - 1;
    for (; j >= 0; j--) {
      const before = list[j] as Sighting;
      if (before.timeMs !== s.timeMs || before.trackId <= s.trackId) break;
      list[j + 1] = before;
    }
    list[j + 1] = s;
  }
}

/**
 * The time between two analysed frames: samples are evenly spaced, so the boxes with the lowest
 * and highest sample index give it exactly (a person's keyframe between samples has no sample
 * index and is left out here, though it counts as a sighting). 0 when every box is on one frame.
 */
export function samplePeriodMs(boxes: readonly EventBox[]): number {
  let first: EventBox | undefined;
  let last: EventBox | undefined;
  for (const b of boxes) {
    if (b.timeMs === null || isOffSample(b.frameIndex)) continue;
    if (!first || b.frameIndex < first.frameIndex) first = b;
    if (!last || b.frameIndex > last.frameIndex) last = b;
  }
  if (!first || !last || last.frameIndex === first.frameIndex) return 0;
  const period =
    ((last.timeMs as number) - (first.timeMs as number)) / (last.frameIndex - first.frameIndex);
  return period > 0 ? period : 0;
}

/** The events of one clip, in time order (then by class). */
export function clipEvents(boxes: readonly EventBox[]): ClipEvent[] {
  return eventsOf(sightingsByLabel(boxes), samplePeriodMs(boxes));
}

/** The events and the count chart's data of one clip, its boxes read once. */
export function clipSummary(
  boxes: readonly EventBox[],
  frameTimesMs: readonly number[] = [],
): { events: ClipEvent[]; counts: CountsOverTime } {
  const byLabel = sightingsByLabel(boxes);
  return {
    events: eventsOf(byLabel, samplePeriodMs(boxes)),
    counts: countsOf(byLabel, frameTimesMs),
  };
}

function eventsOf(byLabel: ReadonlyMap<string, Sighting[]>, period: number): ClipEvent[] {
  const events: ClipEvent[] = [];
  for (const [label, sightings] of byLabel) {
    let from = 0;
    for (let i = 1; i <= sightings.length; i++) {
      const s = sightings[i];
      const previous = sightings[i - 1] as Sighting;
      if (s && s.timeMs - previous.timeMs - period < GAP_MS) continue;
      events.push(eventOf(label, sightings.slice(from, i)));
      from = i;
    }
  }
  return events.sort((a, b) => a.startMs - b.startMs || (a.label < b.label ? -1 : 1));
}

/** `sightings` in time order, all of one class and one range. */
function eventOf(label: string, sightings: readonly Sighting[]): ClipEvent {
  const spans = new Map<number, TrackSpan & { scoreSum: number }>();
  let scoreSum = 0;
  for (const s of sightings) {
    scoreSum += s.score;
    const span = spans.get(s.trackId);
    if (span) {
      span.endMs = s.timeMs;
      span.boxes++;
      span.scoreSum += s.score;
    } else {
      spans.set(s.trackId, {
        trackId: s.trackId,
        startMs: s.timeMs,
        endMs: s.timeMs,
        boxes: 1,
        meanScore: 0,
        scoreSum: s.score,
      });
    }
  }
  const tracks = [...spans.values()]
    .map(({ scoreSum: sum, ...span }) => ({ ...span, meanScore: sum / span.boxes }))
    .sort((a, b) => a.startMs - b.startMs || a.trackId - b.trackId);
  return {
    label,
    startMs: (sightings[0] as Sighting).timeMs,
    endMs: (sightings.at(-1) as Sighting).timeMs,
    boxes: sightings.length,
    meanScore: scoreSum / sightings.length,
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
  return countsOf(sightingsByLabel(boxes), frameTimesMs);
}

/** Whether every sighting (each list in time order) is at one of `times` (ascending). */
function allOnTimes(byLabel: ReadonlyMap<string, Sighting[]>, times: readonly number[]): boolean {
  for (const sightings of byLabel.values()) {
    let j = 0;
    for (const s of sightings) {
      while (j < times.length && (times[j] as number) < s.timeMs) j++;
      if (times[j] !== s.timeMs) return false;
    }
  }
  return true;
}

/** The frames' times and the sightings', ascending, each once. */
function allTimes(byLabel: ReadonlyMap<string, Sighting[]>, frameTimesMs: readonly number[]) {
  // Usually the frames' times are given ascending and every sighting is on one of them: then
  // they are the answer as they are (no set of tens of thousands of times to build and sort).
  const ascending = frameTimesMs.every((t, i) => i === 0 || t > (frameTimesMs[i - 1] as number));
  if (ascending && allOnTimes(byLabel, frameTimesMs)) return [...frameTimesMs];
  const times = new Set(frameTimesMs);
  for (const sightings of byLabel.values()) for (const s of sightings) times.add(s.timeMs);
  return [...times].sort((a, b) => a - b);
}

function countsOf(
  byLabel: ReadonlyMap<string, Sighting[]>,
  frameTimesMs: readonly number[],
): CountsOverTime {
  const timesMs = allTimes(byLabel, frameTimesMs);
  const series = [...byLabel]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([label, sightings]) => {
      const counts = new Array<number>(timesMs.length).fill(0);
      // Both in time order: one walk along the times (no lookup per box). Sorted by time then
      // track, a track counts once per time however many boxes it has there.
      let j = 0;
      let previous: Sighting | undefined;
      for (const s of sightings) {
        while ((timesMs[j] as number) < s.timeMs) j++;
        if (previous?.timeMs !== s.timeMs || previous.trackId !== s.trackId) {
          counts[j] = (counts[j] as number) + 1;
        }
        previous = s;
      }
      return { label, counts };
    });
  return { timesMs, series };
}
