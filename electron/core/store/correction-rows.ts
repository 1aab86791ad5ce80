/**
 * How a correction row is read: the column lists and their array (`.raw()`) mappers, shared by the
 * repo, the bulk writer and the readers that merge (export, evaluation, review priority).
 */
import { contentIdOf } from './content-numbers.js';
import { wireFrameIndex } from './keyframe-column.js';
import type { CorrectionRow, MergeCorrection, ReviewState } from './store-types.js';

const anchorOf = (
  label: string | null,
  score: number | null,
  x: number | null,
  y: number | null,
  w: number | null,
  h: number | null,
): CorrectionRow['anchor'] =>
  label === null ? null : { label, score, bbox: { x: x ?? 0, y: y ?? 0, w: w ?? 0, h: h ?? 0 } };

const boxOf = (x: number | null, y: number | null, w: number | null, h: number | null) =>
  x === null ? null : { x, y: y ?? 0, w: w ?? 0, h: h ?? 0 };

/**
 * Only what the merge reads, as arrays (`.raw()`): an export reads a correction per touched box,
 * and a row as an object of 20 named columns cost more than the whole merge (measured on 420k).
 */
export const MERGE_CORRECTION_COLUMNS = `id, frame_index, time_ms, anchor_label, anchor_score,
  anchor_x, anchor_y, anchor_w, anchor_h, label, x, y, w, h, review, deleted, track, rule, crowd, coco, person_made,
  keyframe`;

/**
 * The order rows are read in, as before the keyframe column (keyframes first, then samples; then
 * insertion): the merge's output order, and so every export's, depends on it. Served by the index
 * on this very expression (migration 19).
 */
export const CORRECTION_ORDER = `${wireFrameIndex()}, id`;

/** One content's rows for the merge, in their order, by the content index (two parameters). */
export const CONTENT_MERGE_CORRECTIONS_SQL = `SELECT ${MERGE_CORRECTION_COLUMNS} FROM corrections
  WHERE content_id = ${contentIdOf('?')} AND solution = ? ORDER BY ${CORRECTION_ORDER}`;

/**
 * The corrections of result `r`'s content and solution (`c`), by the content index; `also` narrows
 * them (`AND c.rule IS NULL`).
 */
export const resultCorrections = (also = '') => `SELECT 1 FROM corrections c
  WHERE c.content_id = ${contentIdOf('r.content_hash')} AND c.solution = r.solution${also}`;

/** The whole row: the merge's columns, then the three it does not read. */
export const CORRECTION_COLUMNS = `${MERGE_CORRECTION_COLUMNS}, content_hash, solution, updated_at`;

/** A row of `MERGE_CORRECTION_COLUMNS` as an array (`.raw()`), in that order. */
export type RawMergeCorrection = [
  number,
  number,
  number | null,
  string | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  string | null,
  number | null,
  number | null,
  number | null,
  number | null,
  ReviewState,
  number,
  number | null,
  string | null,
  number,
  string | null,
  number,
  number,
];

/** A row of `CORRECTION_COLUMNS` as an array (`.raw()`), in that order. */
export type RawCorrection = [...RawMergeCorrection, string, string, number];

/** A correction as the merge reads it, from a row of `MERGE_CORRECTION_COLUMNS`. */
export const toMergeCorrection = (r: RawMergeCorrection): MergeCorrection => ({
  id: r[0],
  frameIndex: r[1],
  timeMs: r[2],
  anchor: anchorOf(r[3], r[4], r[5], r[6], r[7], r[8]),
  label: r[9],
  bbox: boxOf(r[10], r[11], r[12], r[13]),
  review: r[14],
  deleted: r[15] === 1,
  track: r[16],
  rule: r[17],
  // Left undefined when unset: the common box carries neither.
  crowd: r[18] === 1 ? true : undefined,
  coco: r[19] ?? undefined,
  personMade: r[20] === 1 ? true : undefined,
  keyframe: r[21] === 1 ? true : undefined,
});

/**
 * A correction from its row, read as an array (`.raw()`): the same row read as an object of 22
 * named columns cost 90 µs a file, the most of an import that finds its labels already there.
 * Built whole rather than spread from `toMergeCorrection` (an object more per row, on that path).
 */
export const fromRawCorrection = (r: RawCorrection): CorrectionRow => ({
  id: r[0],
  frameIndex: r[1],
  timeMs: r[2],
  anchor: anchorOf(r[3], r[4], r[5], r[6], r[7], r[8]),
  label: r[9],
  bbox: boxOf(r[10], r[11], r[12], r[13]),
  review: r[14],
  deleted: r[15] === 1,
  track: r[16],
  rule: r[17],
  crowd: r[18] === 1,
  coco: r[19],
  personMade: r[20] === 1,
  keyframe: r[21] === 1 ? true : undefined,
  contentHash: r[22],
  solution: r[23],
  updatedAt: r[24],
});
