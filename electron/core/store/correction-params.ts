/**
 * How a correction is bound to the corrections table's statements, shared by the repo's own
 * writes and the bulk writer (corrections-bulk-writer.ts).
 */
import { byPlace } from '../../shared/geometry/frame-place.js';
import type { CorrectionInput, MergeCorrection } from './store-types.js';

export function params(c: CorrectionInput, at: number) {
  return {
    contentHash: c.contentHash,
    solution: c.solution,
    frameIndex: c.frameIndex,
    timeMs: c.timeMs,
    anchorLabel: c.anchor?.label ?? null,
    anchorScore: c.anchor?.score ?? null,
    anchorX: c.anchor?.bbox.x ?? null,
    anchorY: c.anchor?.bbox.y ?? null,
    anchorW: c.anchor?.bbox.w ?? null,
    anchorH: c.anchor?.bbox.h ?? null,
    label: c.label,
    x: c.bbox?.x ?? null,
    y: c.bbox?.y ?? null,
    w: c.bbox?.w ?? null,
    h: c.bbox?.h ?? null,
    review: c.review,
    deleted: c.deleted ? 1 : 0,
    track: c.track ?? null,
    updatedAt: at,
    crowd: c.crowd === undefined ? null : c.crowd ? 1 : 0,
    coco: c.coco ?? null,
    personMade: c.personMade === undefined ? null : c.personMade ? 1 : 0,
    ownerKept: c.ownerKept ? 1 : 0,
    keyframe: c.keyframe === true ? 1 : 0,
  };
}

export type Params = ReturnType<typeof params>;

/**
 * The same values in `VALUES` order, appended to `out` for a multi-row insert; `contentId` is the
 * content's number (content-numbers.ts).
 */
export function pushInsertValues(
  out: unknown[],
  c: CorrectionInput,
  at: number,
  contentId: number,
): void {
  const a = c.anchor;
  const b = c.bbox;
  out.push(
    c.contentHash,
    c.solution,
    c.frameIndex,
    c.timeMs,
    a ? a.label : null,
    a ? a.score : null,
    a ? a.bbox.x : null,
    a ? a.bbox.y : null,
    a ? a.bbox.w : null,
    a ? a.bbox.h : null,
    c.label,
    b ? b.x : null,
    b ? b.y : null,
    b ? b.w : null,
    b ? b.h : null,
    c.review,
    c.deleted ? 1 : 0,
    c.track ?? null,
    at,
    c.crowd ? 1 : 0,
    c.coco ?? null,
    c.personMade ? 1 : 0,
    c.keyframe === true ? 1 : 0,
    contentId,
  );
}

/** How many values `pushInsertValues` appends per row. */
export const COLUMNS = 24;
/** The columns `VALUES` (and `pushInsertValues`) give, in that order. */
export const INSERT_COLUMNS = `content_hash, solution, frame_index, time_ms, anchor_label,
  anchor_score, anchor_x, anchor_y, anchor_w, anchor_h, label, x, y, w, h, review, deleted,
  track, updated_at, crowd, coco, person_made, keyframe, content_id`;

/**
 * New corrections as the merge reads them, in the order the store reads them back (frame, then
 * id: insertion order). Their ids are not read back; the mirror does not need them.
 */
export function asMergeCorrections(cs: readonly CorrectionInput[]): MergeCorrection[] {
  return cs
    .map((c, i) => ({
      id: -1 - i,
      frameIndex: c.frameIndex,
      keyframe: c.keyframe,
      timeMs: c.timeMs,
      anchor: c.anchor,
      label: c.label,
      bbox: c.bbox,
      review: c.review,
      deleted: c.deleted,
      track: c.track ?? null,
      rule: null,
      crowd: c.crowd === true,
      coco: c.coco ?? null,
      personMade: c.personMade === true,
    }))
    .sort(byPlace);
}
/**
 * Every write through this repo is a person's (or an import's): a rule no longer owns the box;
 * unless the write only moves the box onto its detection read again (`ownerKept`).
 */
export const PERSON_OWNS = `rule = CASE WHEN @ownerKept = 1 THEN rule END,
  rule_batch = CASE WHEN @ownerKept = 1 THEN rule_batch END,
  rule_prior_at = CASE WHEN @ownerKept = 1 THEN rule_prior_at END`;
export const VALUES = `@contentHash, @solution, @frameIndex, @timeMs, @anchorLabel, @anchorScore, @anchorX,
  @anchorY, @anchorW, @anchorH, @label, @x, @y, @w, @h, @review, @deleted, @track, @updatedAt,
  coalesce(@crowd, 0), @coco, coalesce(@personMade, 0), @keyframe, @contentId`;
export const POSITIONS = VALUES.replace(/coalesce\(@\w+, 0\)/g, '?').replace(/@\w+/g, '?');
/**
 * An update keeps the crowd flag, the COCO fields and whose box it is when the write leaves them
 * out (a person's edit of an imported box leaves it the person's).
 */
export const KEEP_COCO = `crowd = coalesce(@crowd, crowd), coco = coalesce(@coco, coco),
  person_made = coalesce(@personMade, person_made)`;
