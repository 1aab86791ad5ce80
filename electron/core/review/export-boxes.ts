/** The boxes of one item as exports write them: merged, tracked (clips), then filtered. */
import type {
  DetectionRow,
  ExportQuery,
  MediaKind,
  MergeCorrection,
} from '../store/store-types.js';
import { mergeCorrections, mergeInPlace, type MergedBox } from './merge-corrections.js';
import { assignTracks } from '../tracking/assign-tracks.js';
import { isOffSample } from '../../shared/geometry/track-interpolation.js';

export type TrackedBox = MergedBox & { trackId?: number };

/** Whether a merged box passes an export's filters (deleted boxes never do). */
export function passes(box: DetectionRow & { deleted?: boolean }, query: ExportQuery): boolean {
  if (box.deleted) return false;
  if (box.review === 'rejected' && !query.includeRejected) return false;
  if (query.onlyAccepted && box.review !== 'accepted') return false;
  if (query.onlyAccepted && query.byPerson && box.rule) return false;
  if (query.minScore !== undefined && box.score < query.minScore) return false;
  if (query.classes && !query.classes.includes(box.label)) return false;
  return true;
}

/**
 * Tracks are computed on every box a person has not rejected or deleted, before the export's own
 * filters, so a clip's track ids are the same whichever classes or scores an export picks. A box
 * in no track (a false positive the tracker did not confirm) gets no `trackId` (MOT writes -1).
 * A box a person put in a track keeps it even when rejected (Reject track: the track can still be
 * found and accepted again) or deleted (its id is never given to another, so no track after it
 * is renumbered; a deleted box is shown and exported nowhere). A drawn box deleted (an undone
 * keyframe) is as if never drawn: it holds no id.
 */
export function withTracks(boxes: MergedBox[]): TrackedBox[] {
  // A keyframe between analysed frames is always in a person's track: the tracker, which steps
  // from one analysed frame to the next, never sees one (should it lose its track, it has none).
  const live = boxes.filter(
    (b) =>
      (b.personTrack !== null && !(b.deleted && b.origin === 'added')) ||
      (!b.deleted && b.review !== 'rejected' && !isOffSample(b.frameIndex)),
  );
  const ids = assignTracks(
    live.map((b) => ({
      frameIndex: b.frameIndex,
      label: b.label,
      bbox: b.bbox,
      sure: b.origin !== 'model' || b.review === 'accepted',
      pinned: b.personTrack,
    })),
  );
  live.forEach((b, i) => {
    const id = ids[i];
    if (id !== null && id !== undefined) (b as TrackedBox).trackId = id;
  });
  return boxes;
}

/** `model` must be fresh rows the caller owns: images are corrected in place (no copies). */
export function exportBoxes(
  model: DetectionRow[],
  corrections: readonly MergeCorrection[],
  query: ExportQuery,
  kind: MediaKind,
  analysed: { width: number; height: number },
): DetectionRow[] {
  if (kind !== 'video') {
    return mergeInPlace(model, corrections, analysed).filter((b) => passes(b, query));
  }
  return withTracks(mergeCorrections(model, corrections, { analysed })).filter((b) =>
    passes(b, query),
  );
}
