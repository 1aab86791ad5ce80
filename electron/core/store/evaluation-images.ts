/**
 * The reviewed files of a solution as the evaluation reads them, one image (photo or analysed
 * frame) at a time: the model's own stored boxes, and as truth what the file shows (the model's
 * boxes with a person's corrections merged in, minus rejected and deleted ones), read afresh so
 * an edit after the review counts. Only files with a result of the solution are evaluated.
 */
import { isOffSample } from '../../shared/geometry/track-interpolation.js';
import type { EvalImage, ModelBox, TruthBox } from '../evaluation/evaluation-types.js';
import { mergeCorrections } from '../review/merge-corrections.js';
import type { Db } from '../../node-lib/sqlite.js';
import {
  MERGE_CORRECTION_COLUMNS,
  toMergeCorrection,
  type RawMergeCorrection,
} from './corrections-repo.js';
import { exportSql, fromRaw, type RawDetection } from './export-items.js';

// In path order: the order ties between equal scores are broken in, the same on every run.
const FILES_SQL = `
  SELECT m.id, m.path, r.id AS result_id, r.content_hash,
    EXISTS (SELECT 1 FROM corrections c WHERE c.content_hash = r.content_hash
      AND c.solution = r.solution) AS corrected
  FROM reviewed_media v
  JOIN media m ON m.id = v.media_id AND m.content_hash = v.content_hash
  JOIN results r ON r.content_hash = m.content_hash AND r.solution = v.solution
  WHERE v.solution = ? AND m.status != 'missing'
  ORDER BY m.path`;

const CORRECTIONS_SQL = `SELECT ${MERGE_CORRECTION_COLUMNS} FROM corrections
  WHERE content_hash = ? AND solution = ? ORDER BY frame_index, id`;

interface FileRow {
  id: number;
  path: string;
  result_id: number;
  content_hash: string;
  corrected: number;
}

function byFrame<T extends { frameIndex: number }>(
  boxes: readonly T[],
  into: Map<number, { truth: TruthBox[]; model: ModelBox[] }>,
  put: (frame: { truth: TruthBox[]; model: ModelBox[] }, b: T) => void,
) {
  for (const b of boxes) {
    // A keyframe between analysed frames: the model never saw that frame, so it measures nothing.
    if (isOffSample(b.frameIndex)) continue;
    let f = into.get(b.frameIndex);
    if (!f) into.set(b.frameIndex, (f = { truth: [], model: [] }));
    put(f, b);
  }
}

/** Reads inside one transaction: one snapshot of the library, whatever is written meanwhile. */
export function* evaluationImages(db: Db, solution: string): Generator<EvalImage, void, undefined> {
  const files = db.prepare<[string], FileRow>(FILES_SQL);
  const allBoxes = db.prepare<[{ resultId: number }], RawDetection>(exportSql.allDetections).raw();
  const corrections = db.prepare<[string, string], RawMergeCorrection>(CORRECTIONS_SQL).raw();
  db.exec('BEGIN');
  try {
    for (const f of files.iterate(solution)) {
      const frames = new Map<number, { truth: TruthBox[]; model: ModelBox[] }>();
      // One read of the model's boxes serves both sides: as the model gave them, and merged.
      const rows = allBoxes.all({ resultId: f.result_id }).map(fromRaw);
      const own = rows.map((d) => ({
        frameIndex: d.frameIndex,
        box: { key: `d${d.id}`, label: d.label, score: d.score, bbox: d.bbox },
      }));
      byFrame(own, frames, (frame, b) => frame.model.push(b.box));
      if (f.corrected) {
        const shown = mergeCorrections(
          rows,
          corrections.all(f.content_hash, solution).map(toMergeCorrection),
        ).filter((b) => b.review !== 'rejected');
        byFrame(shown, frames, (frame, b) =>
          frame.truth.push({ key: b.key, label: b.label, bbox: b.bbox }),
        );
      } else {
        // Nobody changed a box: the file shows exactly the model's boxes.
        byFrame(own, frames, (frame, b) => frame.truth.push(b.box));
      }
      if (frames.size === 0) frames.set(0, { truth: [], model: [] });
      for (const [frameIndex, frame] of [...frames].sort((a, b) => a[0] - b[0])) {
        yield { mediaId: f.id, path: f.path, frameIndex, ...frame };
      }
    }
  } finally {
    db.exec('COMMIT');
  }
}
