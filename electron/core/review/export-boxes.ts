/** The boxes of one item as exports write them: merged, tracked (clips), then filtered. */
import type {
  DetectionRow,
  ExportQuery,
  MediaKind,
  MergeCorrection,
} from '../store/store-types.js';
import { mergeCorrections, mergeInPlace } from './merge-corrections.js';
import { trackModelBoxes } from '../tracking/model-tracks.js';
import { placeTracks } from './place-tracks.js';

export type { TrackedBox } from './place-tracks.js';

/** Whether a merged box passes an export's filters (deleted boxes never do). */
export function passes(box: DetectionRow & { deleted?: boolean }, query: ExportQuery): boolean {
  if (box.deleted) return false;
  if (box.review === 'rejected' && !query.includeRejected) return false;
  if (query.onlyAccepted && box.review !== 'accepted') return false;
  if (query.onlyAccepted && query.byPerson && box.rule) return false;
  if (query.minScore !== undefined && box.score !== null && box.score < query.minScore)
    return false;
  if (query.classes && !query.classes.includes(box.label)) return false;
  return true;
}

/** `model` must be fresh rows the caller owns: images are corrected in place (no copies). */
export function exportBoxes(
  model: DetectionRow[],
  corrections: readonly MergeCorrection[],
  query: ExportQuery,
  kind: MediaKind,
): DetectionRow[] {
  if (kind !== 'video') {
    return mergeInPlace(model, corrections).filter((b) => passes(b, query));
  }
  // Tracks are placed on every box before the export's own filters, so a clip's track ids are the
  // same whichever classes or scores an export picks (a box in no track: MOT writes -1).
  const tracks = trackModelBoxes(model);
  return placeTracks(mergeCorrections(model, corrections), tracks).filter((b) => passes(b, query));
}
