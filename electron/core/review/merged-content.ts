/**
 * A labelled content's boxes as the file shows them: the model's stored boxes with a person's
 * corrections merged in (deleted ones flagged, not dropped). For readers that need the corrected
 * state of a few contents while streaming the rest (review priority's scan).
 */
import type { Db } from '../../node-lib/sqlite.js';
import { mergeCorrections, type MergedBox } from './merge-corrections.js';
import {
  CONTENT_MERGE_CORRECTIONS_SQL,
  toMergeCorrection,
  type RawMergeCorrection,
} from '../store/correction-rows.js';
import { exportSql } from '../store/export-items.js';
import { fromRaw, type RawDetection } from '../store/row-mappers.js';

export type MergedContentFn = (
  resultId: number,
  contentHash: string,
  solution: string,
) => MergedBox[];

export function mergedContent(db: Db): MergedContentFn {
  const model = db.prepare<[{ resultId: number }], RawDetection>(exportSql.allDetections).raw();
  const corrections = db
    .prepare<[string, string], RawMergeCorrection>(CONTENT_MERGE_CORRECTIONS_SQL)
    .raw();
  return (resultId, contentHash, solution) =>
    mergeCorrections(
      model.all({ resultId }).map(fromRaw),
      corrections.all(contentHash, solution).map(toMergeCorrection),
      { includeDeleted: true },
    );
}
