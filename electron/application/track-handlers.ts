/**
 * The calls on whole tracks of a clip. Each is one transaction and one undo step made of ordinary
 * corrections (one per box), so it survives re-analysis like any edit and `review.editMany` with
 * its inverse undoes it.
 * Every call puts the boxes in a person's track (`track` edits): the tracker leaves those boxes
 * alone and never renumbers a track a person accepted, rejected, relabelled, merged or split, and
 * a deleted track's id is not given to another (so the tracks after it keep theirs).
 */
import type { TrackedBox } from '../core/review/export-boxes.js';
import { ReviewService, type ReviewReader } from '../core/review/review-service.js';
import { atOrAfterCut } from '../core/review/track-cut.js';
import type { TransactionPort } from '../core/store/store-ports.js';
import type { MediaRecord } from '../core/store/store-types.js';
import { LabelDeskError, type Handlers } from '../shared/contract/index.js';
import type { ReviewEdit } from '../shared/contract/review-schemas.js';
import type { ClipTracks } from './tracking/clip-tracks.js';

type TrackHandlers = Pick<
  Handlers,
  'review.editTrack' | 'review.mergeTracks' | 'review.splitTrack' | 'review.relabelTrack'
>;

const refOf = (b: TrackedBox) => ({ detectionId: b.detectionId, correctionId: b.correctionId });

const unknownTracks = (ids: readonly number[]) =>
  new LabelDeskError(
    'unknown_track',
    `${ids.length === 1 ? 'Track' : 'Tracks'} ${ids.map((id) => `#${id}`).join(', ')} ${
      ids.length === 1 ? 'is' : 'are'
    } not in this clip (any more): nothing was changed.`,
  );

/** The review state each decision leaves a box in (a box already there is not touched again). */
const ALREADY = { accept: 'accepted', reject: 'rejected' } as const;

export function trackHandlers(
  store: ReviewReader & TransactionPort,
  changed: (media: MediaRecord) => void,
  tracks?: ClipTracks,
): TrackHandlers {
  const review = new ReviewService(store, tracks?.cache);
  const first = <Q extends { id: number; solution: string }, R>(h: (q: Q) => R) =>
    tracks ? tracks.first(h) : h;
  /**
   * `review.bulk` in one transaction that refuses the whole call, before anything is stored, when
   * one of `trackIds` has no box shown in the clip (`choose` sees every box shown, so it also
   * learns which tracks the clip has).
   */
  const bulkOnTracks = (
    q: { id: number; solution: string },
    trackIds: readonly number[],
    choose: (b: TrackedBox) => boolean,
    editOf: (b: TrackedBox) => ReviewEdit,
  ) =>
    store.transaction(() => {
      const present = new Set<number>();
      const see = (b: TrackedBox) => {
        if (b.trackId !== undefined) present.add(b.trackId);
        return choose(b);
      };
      const r = review.bulk(q.id, q.solution, see, editOf);
      const missing = trackIds.filter((id) => !present.has(id));
      if (missing.length) throw unknownTracks(missing);
      return r;
    });
  /** Edits every box `choose` picks of the tracks named; answers the count and the undo. */
  const onBoxes = (
    q: { id: number; solution: string; trackIds: readonly number[] },
    choose: (b: TrackedBox) => boolean,
    editOf: (b: TrackedBox) => ReviewEdit,
  ) => {
    const r = bulkOnTracks(q, q.trackIds, choose, editOf);
    if (r.inverse.length) changed(r.media);
    return { changed: r.inverse.length, inverse: r.inverse };
  };
  /**
   * Pins the tracks' boxes to their ids, then edits them, in one transaction: one undo step (the
   * edits' inverse first, then the pins'), counted once per box touched. A track id not in the
   * clip refuses the whole call, before anything is stored.
   */
  const pinnedThen = (
    q: { id: number; solution: string; trackIds: readonly number[] },
    choose: (b: TrackedBox) => boolean,
    editOf: (b: TrackedBox) => ReviewEdit,
  ) => {
    const wanted = new Set(q.trackIds);
    const inTracks = (b: TrackedBox) => b.trackId !== undefined && wanted.has(b.trackId);
    const r = store.transaction(() => {
      const pin = bulkOnTracks(
        q,
        q.trackIds,
        (b) => inTracks(b) && b.personTrack !== b.trackId,
        (b: TrackedBox) => ({ kind: 'track', box: refOf(b), track: b.trackId as number }),
      );
      const edit = review.bulk(q.id, q.solution, (b) => inTracks(b) && choose(b), editOf);
      return { media: edit.media, inverse: [...edit.inverse, ...pin.inverse] };
    });
    if (r.inverse.length) changed(r.media);
    const boxes = new Set(r.inverse.map((e) => (e.kind === 'add' ? null : e.box.correctionId)));
    return { changed: boxes.size, inverse: r.inverse };
  };
  return {
    'review.editTrack': first((q) => {
      const { kind } = q;
      return pinnedThen(
        q,
        (b) => kind === 'delete' || b.review !== ALREADY[kind],
        (b) => ({ kind, box: refOf(b) }),
      );
    }),
    'review.relabelTrack': first((q) =>
      pinnedThen(
        { ...q, trackIds: [q.trackId] },
        (b) => b.label !== q.label,
        (b) => ({ kind: 'relabel', box: refOf(b), label: q.label }),
      ),
    ),
    'review.mergeTracks': first((q) => {
      const into = Math.min(...q.trackIds);
      return onBoxes(
        q,
        (b) => b.trackId !== undefined && q.trackIds.includes(b.trackId) && b.personTrack !== into,
        (b) => ({ kind: 'track', box: refOf(b), track: into }),
      );
    }),
    'review.splitTrack': first((q) => {
      const { boxes } = review.item(q.id, q.solution);
      const track = boxes.filter((b) => !b.deleted && b.trackId === q.trackId);
      if (!track.length) throw unknownTracks([q.trackId]);
      const later = atOrAfterCut(boxes, q);
      // A cut before its first box or after its last leaves the track as it is.
      if (track.every(later) || !track.some(later)) return { changed: 0, inverse: [] };
      const fresh = boxes.reduce((m, b) => Math.max(m, b.trackId ?? 0, b.personTrack ?? 0), 0) + 1;
      const target = (b: TrackedBox) => (later(b) ? fresh : q.trackId);
      return onBoxes(
        { ...q, trackIds: [q.trackId] },
        (b) => b.trackId === q.trackId && b.personTrack !== target(b),
        (b) => ({ kind: 'track', box: refOf(b), track: target(b) }),
      );
    }),
  };
}
