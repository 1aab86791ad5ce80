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
  /** The first box's class; `labels` counts each class only once a second one is seen. */
  label: string;
  labels: Map<string, number> | null;
  startMs: number;
  endMs: number;
  boxes: number;
  scores: number;
  pending: number;
  accepted: number;
  rejected: number;
}

/**
 * Summaries of every track among `boxes` (deleted boxes and boxes in no track left out). Run once
 * as the review opens, with its code still cold: one plain loop, and a map per track only for a
 * track with boxes of two classes (a merge's).
 */
export function summariseTracks(boxes: readonly ReviewBox[]): TrackSummary[] {
  const tallies = new Map<number, Tally>();
  // Indexed: cold code (the review opening) allocates per element in a `for…of`.
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i] as ReviewBox;
    const trackId = b.trackId;
    const timeMs = b.timeMs;
    if (trackId === null || b.deleted || timeMs === null) continue;
    let t = tallies.get(trackId);
    if (!t) {
      t = {
        label: b.label,
        labels: null,
        startMs: timeMs,
        endMs: timeMs,
        boxes: 0,
        scores: 0,
        pending: 0,
        accepted: 0,
        rejected: 0,
      };
      tallies.set(trackId, t);
    }
    if (t.labels) t.labels.set(b.label, (t.labels.get(b.label) ?? 0) + 1);
    else if (b.label !== t.label)
      t.labels = new Map([
        [t.label, t.boxes],
        [b.label, 1],
      ]);
    if (timeMs < t.startMs) t.startMs = timeMs;
    if (timeMs > t.endMs) t.endMs = timeMs;
    t.boxes += 1;
    // A person's box has no score: counted as sure.
    t.scores += b.score ?? 1;
    // Named, not `t[b.review]`: a property picked by a string is slow in the cold code that opens a clip.
    if (b.review === 'pending') t.pending += 1;
    else if (b.review === 'accepted') t.accepted += 1;
    else t.rejected += 1;
  }
  return [...tallies].map(([id, t]) => ({
    id,
    label: t.labels ? [...t.labels].reduce((a, b) => (b[1] > a[1] ? b : a))[0] : t.label,
    startMs: t.startMs,
    endMs: t.endMs,
    boxes: t.boxes,
    meanScore: t.scores / t.boxes,
    review: reviewOf(t),
  }));
}

/** One decision shared by every box, or `mixed`. */
function reviewOf(t: Tally): TrackSummary['review'] {
  const kinds = (['pending', 'accepted', 'rejected'] as const).filter((k) => t[k] > 0);
  return kinds.length > 1 ? 'mixed' : (kinds[0] ?? 'pending');
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
