/**
 * SQL of the library's read model: one media row per file with its result for a solution, its
 * latest submission state, and the filter's box count. Built from a filter; values always bound.
 */
import { CONFLICT_MIN_IOU } from '../../shared/geometry/conflicts.js';

export type ViewStatus = 'new' | 'labelled' | 'failed' | 'uncertain' | 'unreadable';
export type ViewSort = 'path' | 'name' | 'modified' | 'size' | 'boxes' | 'priority';

export interface ViewFilter {
  solution: string;
  folderIds?: readonly number[] | undefined;
  kind?: 'image' | 'video' | undefined;
  status?: ViewStatus | undefined;
  label?: string | undefined;
  minScore?: number | undefined;
  /**
   * The library's minimum score: boxes below it are not shown, so the per-file box count (and the
   * sort by boxes) skips them; unlike `minScore` it keeps files with no box above it.
   */
  shownFrom?: number | undefined;
  review?: 'unreviewed' | 'reviewed' | undefined;
  /** Only files whose model boxes conflict (see electron/shared/geometry/conflicts.ts). */
  conflicts?: boolean | undefined;
  search?: string | undefined;
}

export type Params = Record<string, string | number | null>;

/** The latest submission of this content for the solution (failed / uncertain live there). */
const LAST_STATE = `(SELECT s.state FROM submissions s
  WHERE s.content_hash = m.content_hash AND s.solution = @solution ORDER BY s.id DESC LIMIT 1)`;

const STATUS = `CASE
  WHEN m.status = 'error' THEN 'unreadable'
  WHEN r.id IS NOT NULL THEN 'labelled'
  ELSE coalesce((SELECT CASE st WHEN 'failed' THEN 'failed' WHEN 'uncertain' THEN 'uncertain' END
    FROM (SELECT ${LAST_STATE} AS st)), 'new')
END`;

/** Marked reviewed for the solution at the file's current content (see reviewed-repo.ts). */
export const REVIEWED = `EXISTS (SELECT 1 FROM reviewed_media v WHERE v.media_id = m.id
  AND v.solution = @solution AND v.content_hash = m.content_hash)`;

/** Boxes that pass the filter's label and score (rejected boxes never count). */
function boxPredicate(filter: ViewFilter, score = '@minScore'): string {
  const parts = ['d.result_id = r.id', 'd.rejected = 0'];
  if (score === '@shownFrom' || (filter.minScore !== undefined && filter.minScore > 0))
    parts.push(`(d.score IS NULL OR d.score >= ${score})`);
  if (filter.label) parts.push('d.label = @label');
  return parts.join(' AND ');
}

const filtersBoxes = (f: ViewFilter) => Boolean(f.label) || (f.minScore ?? 0) > 0;
/** The library's minimum score counts only where it is stricter than the filter's. */
const countsFromShown = (f: ViewFilter) => (f.shownFrom ?? 0) > (f.minScore ?? 0);

export function boxCountSql(filter: ViewFilter): string {
  if (!filtersBoxes(filter) && !countsFromShown(filter)) return 'r.box_count';
  const score = countsFromShown(filter) ? '@shownFrom' : '@minScore';
  if (!countsFromShown(filter) && !((filter.minScore ?? 0) > 0))
    return `CASE WHEN r.id IS NULL THEN NULL ELSE (SELECT count(*) FROM detections d WHERE ${boxPredicate(filter, score)}) END`;
  // Two counts, each a range of the detections_shown index (migration 18): scored boxes from the
  // score up, and boxes without a score (a person's, which pass every score). SQLite does not
  // split the OR of one count over the index by itself, and read every row instead.
  const base = boxPredicate({ ...filter, minScore: undefined });
  const count = (term: string) => `(SELECT count(*) FROM detections d WHERE ${base} AND ${term})`;
  return `CASE WHEN r.id IS NULL THEN NULL ELSE ${count(`d.score >= ${score}`)} + ${count('d.score IS NULL')} END`;
}

/** Whether the filter reads the result (status, review, boxes): else counts skip the join. */
export function needsResult(filter: ViewFilter): boolean {
  return (
    Boolean(filter.status) ||
    Boolean(filter.review) ||
    Boolean(filter.conflicts) ||
    filtersBoxes(filter)
  );
}

/**
 * The same test as `findConflicts`, in SQL: two live model boxes of one frame, different labels,
 * IoU ≥ 0.7. `detections.review` mirrors the corrected state, so rejected and deleted boxes are out.
 */
export const CONFLICTS = `EXISTS (SELECT 1 FROM detections a JOIN detections b
  ON b.result_id = a.result_id AND b.frame_index = a.frame_index AND b.id > a.id
    AND b.label != a.label AND b.rejected = 0
  WHERE a.result_id = r.id AND a.rejected = 0
    AND max(0, min(a.x + a.w, b.x + b.w) - max(a.x, b.x))
      * max(0, min(a.y + a.h, b.y + b.h) - max(a.y, b.y))
      >= ${CONFLICT_MIN_IOU} * (a.w * a.h + b.w * b.h
        - max(0, min(a.x + a.w, b.x + b.w) - max(a.x, b.x))
        * max(0, min(a.y + a.h, b.y + b.h) - max(a.y, b.y))))`;

export function whereSql(filter: ViewFilter, params: Params): string {
  const where = ["m.status != 'missing'"];
  params['solution'] = filter.solution;
  if (filter.folderIds?.length) {
    where.push('m.folder_id IN (SELECT value FROM json_each(@folders))');
    params['folders'] = JSON.stringify(filter.folderIds);
  }
  if (filter.kind) {
    where.push('m.kind = @kind');
    params['kind'] = filter.kind;
  }
  if (filter.search) {
    where.push("m.path LIKE @search ESCAPE '\\'");
    params['search'] = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  if (filter.minScore !== undefined && filter.minScore > 0) params['minScore'] = filter.minScore;
  if (countsFromShown(filter)) params['shownFrom'] = filter.shownFrom ?? 0;
  if (filter.label) params['label'] = filter.label;
  if (filtersBoxes(filter)) {
    where.push(`EXISTS (SELECT 1 FROM detections d WHERE ${boxPredicate(filter)})`);
  }
  // Reviewed: a person (or an import) marked the file so. To review: labelled, not marked yet.
  if (filter.review === 'reviewed') where.push(REVIEWED);
  if (filter.review === 'unreviewed') where.push(`r.id IS NOT NULL AND NOT ${REVIEWED}`);
  if (filter.conflicts) where.push(CONFLICTS);
  if (filter.status) {
    const byStatus: Record<ViewStatus, string> = {
      unreadable: "m.status = 'error'",
      labelled: "m.status = 'present' AND r.id IS NOT NULL",
      failed: `m.status = 'present' AND r.id IS NULL AND ${LAST_STATE} = 'failed'`,
      uncertain: `m.status = 'present' AND r.id IS NULL AND ${LAST_STATE} = 'uncertain'`,
      new: `m.status = 'present' AND r.id IS NULL AND coalesce(${LAST_STATE}, '') NOT IN ('failed', 'uncertain')`,
    };
    where.push(byStatus[filter.status]);
  }
  return where.join(' AND ');
}

/** Unix and Windows base names, for sorting by name (SQLite has no basename()). */
const NAME = `replace(m.path, rtrim(m.path, replace(replace(m.path, '/', ''), '\\', '')), '')`;

/** The cached expected corrections (migration 9); -1 for a file not scored (not labelled). */
const PRIORITY = `coalesce((SELECT p.score FROM review_priority p
  WHERE p.solution = @solution AND p.media_id = m.id), -1)`;

export function orderSql(sort: ViewSort, descending: boolean, filter: ViewFilter): string {
  const dir = descending ? 'DESC' : 'ASC';
  // Review priority reads "most expected corrections first": files still to review, highest first.
  const first = descending ? 'ASC' : 'DESC';
  const key: Record<ViewSort, string> = {
    path: `m.path ${dir}`,
    name: `${NAME} ${dir}, m.path ${dir}`,
    modified: `m.mtime_ms ${dir}, m.path ${dir}`,
    size: `m.size ${dir}, m.path ${dir}`,
    boxes: `coalesce(${boxCountSql(filter)}, -1) ${dir}, m.path ${dir}`,
    priority: `${REVIEWED} ${dir}, ${PRIORITY} ${first}, m.path ${dir}`,
  };
  return key[sort];
}

export const FROM = `media m LEFT JOIN results r
  ON r.content_hash = m.content_hash AND r.solution = @solution`;

/** The join only when the filter or the sort reads the result. */
export function fromFor(filter: ViewFilter, sort?: ViewSort): string {
  return needsResult(filter) || sort === 'boxes' ? FROM : 'media m';
}

export const ITEM_COLUMNS = `m.id, m.path, m.kind, m.size, m.width, m.height, m.orientation,
  m.duration_ms, m.error_code, m.error_message, r.id AS result_id, ${STATUS} AS item_status, ${REVIEWED} AS reviewed`;
