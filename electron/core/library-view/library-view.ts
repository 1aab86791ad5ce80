/**
 * The library as the UI browses it: pages, counts and per-class totals for a filter, on a
 * connection of its own that only reads, so browsing never waits for a run's writes (WAL).
 */
import { openDatabase, type Db } from '../../node-lib/sqlite.js';
import { estimateCounts, type EstimateCounts } from '../runner/estimate-counts.js';
import type { CatalogView } from '../runner/service-port.js';
import { openLibraryStore } from '../review/open-library-store.js';
import { scanReviewPriority, type PriorityScan } from '../review/review-priority-scan.js';
import type { MediaScope } from '../store/scope-media.js';
import type { LibraryStore } from '../store/store-types.js';
import { LibraryBrowse, type ViewItem, type ViewQuery } from './library-browse.js';
import { DataVersionCache } from './library-view-cache.js';
import {
  FROM,
  whereSql,
  type Params,
  type ViewFilter,
  type ViewSort,
  type ViewStatus,
} from './library-view-sql.js';

export type { ViewFilter, ViewItem, ViewQuery, ViewSort, ViewStatus };

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

export class LibraryView {
  private readonly db: Db;
  private readonly cache: DataVersionCache;
  private readonly browse: LibraryBrowse;
  /** The store's repositories for planning, opened on first use; this view only reads with it. */
  private planStore: LibraryStore | undefined;

  constructor(
    private readonly file: string,
    private readonly nativeBinding?: string,
  ) {
    this.db = openDatabase(file, { nativeBinding });
    this.db.pragma('query_only = ON');
    this.cache = new DataVersionCache(this.db);
    this.browse = new LibraryBrowse(this.db, this.cache);
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
    return this.browse.count(filter);
  }

  page(q: ViewQuery): ViewItem[] {
    return this.browse.page(q);
  }

  ids(q: ViewQuery): number[] {
    return this.browse.ids(q);
  }

  item(id: number, solution: string): ViewItem | undefined {
    return this.browse.item(id, solution);
  }

  /** Boxes per class over the items that match the filter. */
  classCounts(filter: ViewFilter): { label: string; count: number }[] {
    return this.cache.get(`classes:${JSON.stringify(filter)}`, () => this.countClasses(filter));
  }

  private countClasses(filter: ViewFilter): { label: string; count: number }[] {
    const params: Params = {};
    const where = whereSql(filter, params);
    const score =
      filter.minScore && filter.minScore > 0 ? 'AND (d.score IS NULL OR d.score >= @minScore)' : '';
    const label = filter.label ? 'AND d.label = @label' : '';
    const sql = `SELECT d.label AS label, count(*) AS count FROM ${FROM}
      JOIN detections d ON d.result_id = r.id
      WHERE ${where} AND d.rejected = 0 ${score} ${label}
      GROUP BY d.label ORDER BY count DESC, d.label`;
    return this.db.prepare(sql).all(params) as { label: string; count: number }[];
  }

  /** Per-folder totals for the Folders screen, in one pass over the media. */
  folderTotals(solution: string): FolderTotals[] {
    return this.cache.get(`folders:${solution}`, () => this.countFolders(solution));
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
