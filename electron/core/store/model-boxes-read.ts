/**
 * A result's model boxes as the tracker needs them (id, frame, label, box), read on a connection
 * of the caller's own (the tracker's thread): the same rows, in the same order, as
 * `ResultsRepo.detections`, so both give the same fingerprint.
 */
import type { Db } from '../../node-lib/sqlite.js';
import type { DetectionRow } from './store-types.js';

export type TrackedRow = Pick<
  DetectionRow,
  'id' | 'frameIndex' | 'label' | 'bbox' | 'score' | 'timeMs'
>;

export function modelBoxesForTracking(db: Db, resultId: number): TrackedRow[] {
  const rows = db
    .prepare<
      [number],
      [number, number, string, number, number, number, number, number, number | null]
    >(
      'SELECT id, frame_index, label, x, y, w, h, score, time_ms FROM detections WHERE result_id = ? ORDER BY frame_index, id',
    )
    .raw()
    .all(resultId);
  return rows.map(([id, frameIndex, label, x, y, w, h, score, timeMs]) => ({
    id,
    frameIndex,
    label,
    bbox: { x, y, w, h },
    score,
    timeMs,
  }));
}
