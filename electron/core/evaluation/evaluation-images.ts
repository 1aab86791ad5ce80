/**
 * The reviewed files of a solution as the evaluation reads them, one image (photo or analysed
 * frame) at a time: the model's own stored boxes, and as truth what the file shows (the model's
 * boxes with a person's corrections merged in, minus rejected and deleted ones), read afresh so
 * an edit after the review counts. Only files with a result of the solution are evaluated.
 */
import type { EvalImage, ModelBox, TruthBox } from './evaluation-types.js';
import { mergeCorrections } from '../review/merge-corrections.js';
import type { Db } from '../../node-lib/sqlite.js';
import {
  CONTENT_MERGE_CORRECTIONS_SQL,
  resultCorrections,
  toMergeCorrection,
  type RawMergeCorrection,
} from '../store/correction-rows.js';
import { exportSql } from '../store/export-items.js';
import { fromRaw, type RawDetection } from '../store/row-mappers.js';
import { mediaDisplayedSize } from '../export/box-geometry.js';
import { truthArea } from './truth-area.js';

// In path order: the order ties between equal scores are broken in, the same on every run.
const FILES_SQL = `
  SELECT m.id, m.path, r.id AS result_id, r.content_hash, m.width, m.height, m.orientation,
    r.analysed_width, r.analysed_height,
    EXISTS (${resultCorrections()}) AS corrected
  FROM reviewed_media v
  JOIN media m ON m.id = v.media_id AND m.content_hash = v.content_hash
  JOIN results r ON r.content_hash = m.content_hash AND r.solution = v.solution
  WHERE v.solution = ? AND m.status != 'missing'
  ORDER BY m.path`;

interface FileRow {
  id: number;
  path: string;
  result_id: number;
  content_hash: string;
  width: number | null;
  height: number | null;
  orientation: number;
  analysed_width: number;
  analysed_height: number;
  corrected: number;
}

type Frames = Map<number, { truth: TruthBox[]; model: ModelBox[] }>;

function frameOf(frames: Frames, index: number) {
  let f = frames.get(index);
  if (!f) frames.set(index, (f = { truth: [], model: [] }));
  return f;
}

/**
 * The model's boxes of a file nobody corrected: only the columns the evaluation reads. Returning a
 * row costs per column (6M rows at 60 boxes per image), and these skip five of the thirteen.
 */
const MODEL_BOXES_SQL = `SELECT id, frame_index, label, score, x, y, w, h FROM detections
  WHERE result_id = ? ORDER BY frame_index, id`;
type ModelRow = [id: number, frame: number, label: string, score: number | null, ...xywh: number[]];

/** A box as the model gave it, straight from its row (no intermediate object). */
const modelBoxOf = (d: ModelRow): ModelBox => ({
  key: `d${d[0]}`,
  label: d[2],
  score: d[3],
  bbox: { x: d[4] as number, y: d[5] as number, w: d[6] as number, h: d[7] as number },
});
const asModelRow = (d: RawDetection): ModelRow => [d[0], d[2], d[4], d[6], d[7], d[8], d[9], d[10]];

/** Reads inside one transaction: one snapshot of the library, whatever is written meanwhile. */
export function* evaluationImages(db: Db, solution: string): Generator<EvalImage, void, undefined> {
  const files = db.prepare<[string], FileRow>(FILES_SQL);
  const allBoxes = db.prepare<[{ resultId: number }], RawDetection>(exportSql.allDetections).raw();
  const modelBoxes = db.prepare<[number], ModelRow>(MODEL_BOXES_SQL).raw();
  const corrections = db
    .prepare<[string, string], RawMergeCorrection>(CONTENT_MERGE_CORRECTIONS_SQL)
    .raw();
  db.exec('BEGIN');
  try {
    for (const f of files.iterate(solution)) {
      // The picture as shown, in pixels: COCO's area ranges are in pixels.
      const size = mediaDisplayedSize(f, {
        analysedWidth: f.analysed_width,
        analysedHeight: f.analysed_height,
      });
      const frames: Frames = new Map();
      // One read of the model's boxes serves both sides: as the model gave them, and merged.
      const raw = f.corrected ? allBoxes.all({ resultId: f.result_id }) : [];
      const rows = f.corrected ? raw.map(asModelRow) : modelBoxes.all(f.result_id);
      for (const d of rows) frameOf(frames, d[1]).model.push(modelBoxOf(d));
      if (f.corrected) {
        const shown = mergeCorrections(
          raw.map(fromRaw),
          corrections.all(f.content_hash, solution).map(toMergeCorrection),
        );
        for (const b of shown) {
          // A keyframe between analysed frames: the model never saw it, so it measures nothing.
          if (b.review === 'rejected' || b.keyframe === true) continue;
          frameOf(frames, b.frameIndex).truth.push({
            key: b.key,
            label: b.label,
            bbox: b.bbox,
            crowd: b.crowd === true,
            area: size ? truthArea(b.coco, b.bbox, size.width, size.height) : undefined,
          });
        }
      } else {
        // Nobody changed a box: the file shows exactly the model's boxes.
        for (const frame of frames.values()) frame.truth = frame.model;
      }
      if (frames.size === 0) frames.set(0, { truth: [], model: [] });
      const ordered = frames.size === 1 ? frames : [...frames].sort((a, b) => a[0] - b[0]);
      for (const [frameIndex, frame] of ordered) {
        yield { mediaId: f.id, path: f.path, frameIndex, ...size, ...frame };
      }
    }
  } finally {
    db.exec('COMMIT');
  }
}
