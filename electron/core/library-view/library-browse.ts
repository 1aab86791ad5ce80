/**
 * The grid's queries: a page of items, the filter's count, the ids of a range and one item. Kept
 * apart from the whole-library totals (library-view.ts) so a thread of their own can answer the
 * grid without loading the planning code or waiting behind a pass over every file.
 */
import path from 'node:path';
import type { Db } from '../../node-lib/sqlite.js';
import type { DataVersionCache } from './library-view-cache.js';
import { contentIdOf } from '../store/content-numbers.js';
import {
  boxCountSql,
  FROM,
  fromFor,
  ITEM_COLUMNS,
  orderSql,
  whereSql,
  type Params,
  type ViewFilter,
  type ViewSort,
  type ViewStatus,
} from './library-view-sql.js';

export interface ViewItem {
  id: number;
  path: string;
  name: string;
  kind: 'image' | 'video';
  size: number;
  width: number | null;
  height: number | null;
  orientation: number;
  durationMs: number | null;
  status: ViewStatus;
  boxes: number | null;
  pendingReview: number;
  /** Boxes accepted by an auto-accept rule, not by a person. */
  byRule: number;
  /** Marked reviewed for the solution (its shown boxes are ground truth). */
  reviewed: boolean;
  resultId: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface ViewQuery {
  filter: ViewFilter;
  sort: ViewSort;
  descending: boolean;
  offset: number;
  limit: number;
}

interface ItemDbRow {
  id: number;
  path: string;
  kind: 'image' | 'video';
  size: number;
  width: number | null;
  height: number | null;
  orientation: number;
  duration_ms: number | null;
  error_code: string | null;
  error_message: string | null;
  result_id: number | null;
  item_status: ViewStatus;
  boxes: number | null;
  pending: number;
  by_rule: number;
  reviewed: number;
}

const PENDING = `CASE WHEN r.id IS NULL THEN 0 ELSE
  (SELECT count(*) FROM detections d WHERE d.result_id = r.id AND d.review = 'pending') END`;

// Boxes an auto-accept rule accepted (and nobody has touched since), by the corrections' index.
const BY_RULE = `CASE WHEN r.id IS NULL THEN 0 ELSE
  (SELECT count(*) FROM corrections c WHERE c.content_id = ${contentIdOf('r.content_hash')}
    AND c.solution = r.solution AND c.rule IS NOT NULL AND c.deleted = 0) END`;

export class LibraryBrowse {
  constructor(
    private readonly db: Db,
    private readonly cache: DataVersionCache,
  ) {}

  count(filter: ViewFilter): number {
    return this.cache.get(`count:${JSON.stringify(filter)}`, () => {
      const params: Params = {};
      const where = whereSql(filter, params);
      const sql = `SELECT count(*) AS n FROM ${fromFor(filter)} WHERE ${where}`;
      return (this.db.prepare(sql).get(params) as { n: number }).n;
    });
  }

  page(q: ViewQuery): ViewItem[] {
    const params: Params = { limit: q.limit, offset: q.offset };
    const where = whereSql(q.filter, params);
    // The page's rows are chosen first on the bare join; per-row subqueries run only for them.
    const sql = `SELECT ${ITEM_COLUMNS}, ${boxCountSql(q.filter)} AS boxes, ${PENDING} AS pending,
      ${BY_RULE} AS by_rule FROM ${FROM} WHERE m.id IN (
        SELECT m.id FROM ${fromFor(q.filter, q.sort)} WHERE ${where}
        ORDER BY ${orderSql(q.sort, q.descending, q.filter)} LIMIT @limit OFFSET @offset)
      ORDER BY ${orderSql(q.sort, q.descending, q.filter)}`;
    return (this.db.prepare(sql).all(params) as ItemDbRow[]).map(toItem);
  }

  ids(q: ViewQuery): number[] {
    const params: Params = { limit: q.limit, offset: q.offset };
    const where = whereSql(q.filter, params);
    const sql = `SELECT m.id FROM ${fromFor(q.filter, q.sort)} WHERE ${where}
      ORDER BY ${orderSql(q.sort, q.descending, q.filter)} LIMIT @limit OFFSET @offset`;
    return this.db.prepare(sql).pluck().all(params) as number[];
  }

  item(id: number, solution: string): ViewItem | undefined {
    const params: Params = { solution, id };
    const row = this.db
      .prepare(
        `SELECT ${ITEM_COLUMNS}, r.box_count AS boxes, ${PENDING} AS pending,
         ${BY_RULE} AS by_rule FROM ${FROM}
         WHERE m.id = @id`,
      )
      .get(params) as ItemDbRow | undefined;
    return row ? toItem(row) : undefined;
  }
}

function toItem(r: ItemDbRow): ViewItem {
  return {
    id: r.id,
    path: r.path,
    name: path.basename(r.path),
    kind: r.kind,
    size: r.size,
    width: r.width,
    height: r.height,
    orientation: r.orientation,
    durationMs: r.duration_ms,
    status: r.item_status,
    boxes: r.result_id === null ? null : r.boxes,
    pendingReview: r.pending,
    byRule: r.by_rule,
    reviewed: r.reviewed === 1,
    resultId: r.result_id,
    errorCode: r.error_code,
    errorMessage: r.error_message,
  };
}
