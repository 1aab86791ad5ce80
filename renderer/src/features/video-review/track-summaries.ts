/**
 * A clip's tracks as the `Tracks` list shows them: one summary per track id (class, span, boxes,
 * mean score, a person's decision), sorted four ways, and named "person #3 · 00:01.2–00:12.8 ·
 * 58 boxes". One pass over the boxes: a two-hour clip has tens of thousands.
 */
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { count, plural } from '../../ui/format.js';
import { clockTime } from './clip-time.js';

export interface TrackSummary {
  id: number;
  /** The class most of its boxes have (a merge can join two). */
  label: string;
  startMs: number;
  endMs: number;
  boxes: number;
  meanScore: number;
  /** Every box accepted, or rejected, by a person; `mixed` when some are decided. */
  review: 'pending' | 'accepted' | 'rejected' | 'mixed';
}

export type TrackSort = 'start' | 'length' | 'class' | 'score';

export const TRACK_SORTS: readonly { value: TrackSort; label: string }[] = [
  { value: 'start', label: 'Start' },
  { value: 'length', label: 'Length' },
  { value: 'class', label: 'Class' },
  { value: 'score', label: 'Mean score' },
];

interface Tally {
  labels: Map<string, number>;
  startMs: number;
  endMs: number;
  boxes: number;
  scores: number;
  decided: Map<ReviewBox['review'], number>;
}

/** Summaries of every track among `boxes` (deleted boxes and boxes in no track left out). */
export function summariseTracks(boxes: readonly ReviewBox[]): TrackSummary[] {
  const tallies = new Map<number, Tally>();
  for (const b of boxes) {
    if (b.trackId === null || b.deleted || b.timeMs === null) continue;
    let t = tallies.get(b.trackId);
    if (!t) {
      t = {
        labels: new Map(),
        startMs: b.timeMs,
        endMs: b.timeMs,
        boxes: 0,
        scores: 0,
        decided: new Map(),
      };
      tallies.set(b.trackId, t);
    }
    t.labels.set(b.label, (t.labels.get(b.label) ?? 0) + 1);
    t.startMs = Math.min(t.startMs, b.timeMs);
    t.endMs = Math.max(t.endMs, b.timeMs);
    t.boxes += 1;
    t.scores += b.score;
    t.decided.set(b.review, (t.decided.get(b.review) ?? 0) + 1);
  }
  return [...tallies].map(([id, t]) => ({
    id,
    label: [...t.labels].reduce((a, b) => (b[1] > a[1] ? b : a))[0],
    startMs: t.startMs,
    endMs: t.endMs,
    boxes: t.boxes,
    meanScore: t.scores / t.boxes,
    review: t.decided.size > 1 ? 'mixed' : ([...t.decided.keys()][0] ?? 'pending'),
  }));
}

const ORDER: Record<TrackSort, (a: TrackSummary, b: TrackSummary) => number> = {
  start: (a, b) => a.startMs - b.startMs,
  // Longest first: the objects seen longest are the ones worth a look.
  length: (a, b) => b.endMs - b.startMs - (a.endMs - a.startMs) || b.boxes - a.boxes,
  class: (a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : a.startMs - b.startMs),
  // Lowest first: the doubtful tracks come up for review.
  score: (a, b) => a.meanScore - b.meanScore,
};

/** A new array in `sort` order; ties by id, so the order never flickers. */
export function sortTracks(tracks: readonly TrackSummary[], sort: TrackSort): TrackSummary[] {
  const by = ORDER[sort];
  return [...tracks].sort((a, b) => by(a, b) || a.id - b.id);
}

/** The option's name: "person #3 · 00:01.2–00:12.8 · 58 boxes", and a person's decision. */
export function trackName(t: TrackSummary): string {
  return `${t.label} #${t.id} · ${spanText(t)}`;
}

/** The name after the track: "00:01.2–00:12.8 · 58 boxes · accepted" (its second line). */
export function spanText(t: TrackSummary): string {
  const decided = t.review === 'pending' ? '' : ` · ${t.review}`;
  return `${clockTime(t.startMs, 1)}–${clockTime(t.endMs, 1)} · ${plural(t.boxes, 'box', 'boxes')}${decided}`;
}

/** "mean 0.83", beside the name. */
export function scoreText(t: TrackSummary): string {
  return `mean ${t.meanScore.toFixed(2)}`;
}

/** The tracks list's heading: "Tracks (1,204)". */
export function tracksHeading(n: number): string {
  return `Tracks (${count(n)})`;
}
