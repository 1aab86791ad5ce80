/**
 * The library as the UI browses it: pages, counts and per-class totals for a filter, on a
 * connection of its own that only reads, so browsing never waits for a run's writes (WAL).
 */
import path from 'node:path';
import { openDatabase, type Db } from '../../node-lib/sqlite.js';
import { estimateCounts, type EstimateCounts } from '../runner/estimate-counts.js';
import type { CatalogView } from '../runner/service-port.js';
import { openLibraryStore } from '../review/open-library-store.js';
import { scanReviewPriority, type PriorityScan } from '../review/review-priority-scan.js';
import type { MediaScope } from '../store/scope-media.js';
import type { LibraryStore } from '../store/store-types.js';
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

export type { ViewFilter, ViewSort, ViewStatus };

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

export interface FolderTotals {
  folderId: number;
  images: number;
  clips: number;
  labelled: number;
  failed: number;
  new: number;
  errors: number;
}

export interface RunHistoryRow {
  id: number;
  solution: string;
  serviceUrl: string;
  startedAt: number;
  finishedAt: number | null;
  status: string;
  estimateFrames: number;
  framesSpent: number;
  files: number;
}

export interface ProblemRow {
  mediaId: number;
  path: string;
  state: 'failed' | 'uncertain';
  code: string;
  message: string;
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
  (SELECT count(*) FROM corrections c WHERE c.content_hash = r.content_hash
    AND c.solution = r.solution AND c.rule IS NOT NULL AND c.deleted = 0) END`;

export class LibraryView {
  private readonly db: Db;
  private readonly version;
  /** Answers of the heavier queries, valid while the database has not changed (data_version). */
  private cache = new Map<string, unknown>();
  private cachedAt = -1;
  /** The store's repositories for planning, opened on first use; this view only reads with it. */
  private planStore: LibraryStore | undefined;

  constructor(
    private readonly file: string,
    private readonly nativeBinding?: string,
  ) {
    this.db = openDatabase(file, { nativeBinding });
    this.db.pragma('query_only = ON');
    this.version = this.db.prepare('PRAGMA data_version').pluck();
  }

  /** The cached answer for `key` if no connection has committed since; else computes it. */
  private cached<T>(key: string, compute: () => T): T {
    const version = this.version.get() as number;
    if (version !== this.cachedAt) {
      this.cache = new Map();
      this.cachedAt = version;
    }
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const value = compute();
    this.cache.set(key, value);
    return value;
  }

  close(): void {
    this.planStore?.close();
    if (this.db.open) this.db.close();
  }

  /** What a run over the scope would cost (counts only). */
  estimate(input: {
    catalog: CatalogView;
    solution: string;
    scope: MediaScope;
    serviceUrl: string;
    /** Re-analysis: count files labelled before this time as to send (see planRun). */
    reanalyseBefore?: number | undefined;
    /** Runs going now: their files are counted apart (see planRun). */
    liveRunIds?: readonly number[] | undefined;
    /** A team project's estimate: the files to pay too (team-estimate.ts). */
    listToPay?: boolean | undefined;
  }): EstimateCounts {
    this.planStore ??= openLibraryStore(this.file, { nativeBinding: this.nativeBinding });
    return estimateCounts(
      this.planStore,
      input.catalog,
      input.solution,
      input.scope,
      input.serviceUrl,
      input.reanalyseBefore,
      input.liveRunIds,
      input.listToPay,
    );
  }

  /** Every labelled file's review priority for the solution, given its classes' thresholds. */
  priorityScores(solution: string, thresholds: readonly [string, number][]): PriorityScan {
    return scanReviewPriority(this.db, solution, new Map(thresholds));
  }

  count(filter: ViewFilter): number {
    return this.cached(`count:${JSON.stringify(filter)}`, () => {
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

  /** Boxes per class over the items that match the filter. */
  classCounts(filter: ViewFilter): { label: string; count: number }[] {
    return this.cached(`classes:${JSON.stringify(filter)}`, () => this.countClasses(filter));
  }

  private countClasses(filter: ViewFilter): { label: string; count: number }[] {
    const params: Params = {};
    const where = whereSql(filter, params);
    const score =
      filter.minScore && filter.minScore > 0 ? 'AND (d.score IS NULL OR d.score >= @minScore)' : '';
    const label = filter.label ? 'AND d.label = @label' : '';
    const sql = `SELECT d.label AS label, count(*) AS count FROM ${FROM}
      JOIN detections d ON d.result_id = r.id
      WHERE ${where} AND d.review != 'rejected' ${score} ${label}
      GROUP BY d.label ORDER BY count DESC, d.label`;
    return this.db.prepare(sql).all(params) as { label: string; count: number }[];
  }

  /** Per-folder totals for the Folders screen, in one pass over the media. */
  folderTotals(solution: string): FolderTotals[] {
    return this.cached(`folders:${solution}`, () => this.countFolders(solution));
  }

  private countFolders(solution: string): FolderTotals[] {
    const sql = `SELECT m.folder_id AS folderId,
        sum(m.kind = 'image' AND m.status = 'present') AS images,
        sum(m.kind = 'video' AND m.status = 'present') AS clips,
        sum(m.status = 'present' AND m.rid IS NOT NULL) AS labelled,
        sum(m.status = 'present' AND m.rid IS NULL AND st = 'failed') AS failed,
        sum(m.status = 'present' AND m.rid IS NULL AND coalesce(st, '') NOT IN ('failed', 'uncertain')) AS new,
        sum(m.status = 'error') AS errors
      FROM (SELECT m.folder_id, m.kind, m.status, r.id AS rid,
              CASE WHEN r.id IS NULL THEN (SELECT s.state FROM submissions s
                WHERE s.content_hash = m.content_hash AND s.solution = @solution
                ORDER BY s.id DESC LIMIT 1) END AS st
            FROM media m LEFT JOIN results r
              ON r.content_hash = m.content_hash AND r.solution = @solution) m
      GROUP BY m.folder_id`;
    return this.db.prepare(sql).all({ solution }) as FolderTotals[];
  }

  /** Runs, newest first, with the frames each spent (net of refunds) and the files it sent. */
  runs(limit: number): RunHistoryRow[] {
    return this.db
      .prepare(
        `SELECT r.id, r.solution, r.service_url AS serviceUrl, r.started_at AS startedAt,
           r.finished_at AS finishedAt, r.status, r.estimate_frames AS estimateFrames,
           coalesce((SELECT sum(l.frames) FROM submissions s JOIN frames_ledger l
             ON l.submission_id = s.id WHERE s.run_id = r.id), 0) AS framesSpent,
           (SELECT count(*) FROM submissions s WHERE s.run_id = r.id) AS files
         FROM runs r ORDER BY r.id DESC LIMIT ?`,
      )
      .all(limit) as RunHistoryRow[];
  }

  /** Files whose latest call for the solution failed or may have been charged (uncertain). */
  problems(solution: string, limit: number): ProblemRow[] {
    return this.db
      .prepare(
        `SELECT m.id AS mediaId, m.path, s.state, coalesce(s.error_code, s.state) AS code,
           coalesce(s.error_message, '') AS message
         FROM submissions s JOIN media m ON m.id = s.media_id
         WHERE s.solution = @solution AND s.state IN ('failed', 'uncertain')
           AND s.id = (SELECT max(s2.id) FROM submissions s2
             WHERE s2.content_hash = s.content_hash AND s2.solution = s.solution)
           AND NOT EXISTS (SELECT 1 FROM results r
             WHERE r.content_hash = s.content_hash AND r.solution = s.solution)
           AND m.status = 'present'
         ORDER BY m.path LIMIT @limit`,
      )
      .all({ solution, limit }) as ProblemRow[];
  }

  /** Unreadable files of a folder with their code and sentence. */
  folderErrors(folderId: number, limit: number): { path: string; code: string; message: string }[] {
    return this.db
      .prepare(
        `SELECT path, coalesce(error_code, 'unreadable') AS code,
           coalesce(error_message, 'The file could not be read.') AS message
         FROM media WHERE folder_id = ? AND status = 'error' ORDER BY path LIMIT ?`,
      )
      .all(folderId, limit) as { path: string; code: string; message: string }[];
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
