/**
 * The library database as the rest of core sees it. `electron/core/store` implements these
 * interfaces on better-sqlite3 (WAL, foreign keys, STRICT tables, hashed numbered migrations);
 * library, runner, export and the CLI use only what is declared here.
 */
import type { ExportItem, ExportQuery } from './export-types.js';
import type { LearntCostsApi } from './learnt-costs-types.js';
import type { MediaReadResult } from './media-read-result.js';
import type { RawAnswersApi } from './raw-answer-types.js';
import type { ReviewedBy, ReviewedMark } from './reviewed-types.js';
import type { CocoIds } from './coco-ids-repo.js';
import type { ReviewPriorityApi } from './review-priority-types.js';
import type { RuleBatchesApi } from './rule-batch-types.js';
import type { SubmissionsApi } from './submissions-types.js';
import type { CorrectionsBulkWriter, FreshContents } from './corrections-bulk-types.js';
import type { TeamApi } from './team-types.js';

export type { MediaReadResult } from './media-read-result.js';

export type * from './row-types.js';
import type {
  CorrectionInput,
  FolderRow,
  CorrectionRow,
  DetectionRow,
  MediaKind,
  MediaRecord,
  MediaUpsert,
  RawDetection,
  ResultInput,
  ResultRow,
  ReviewState,
  SnapshotEntry,
} from './row-types.js';
export type { SubmissionRow, SubmissionsApi, SubmissionState } from './submissions-types.js';

export interface MediaPageRow {
  media: MediaRecord;
  /** Boxes of the result for (contentHash, solution), or null when not labelled yet. */
  boxCount: number | null;
}

export interface LedgerEntry {
  serviceUrl: string;
  submissionId: number | null;
  /** Positive when spent, negative when refunded. */
  frames: number;
  at: number;
}

export type {
  CorrectionsBulkWriter,
  FreshContents,
  KnownContent,
} from './corrections-bulk-types.js';
export type { ExportItem, ExportQuery } from './export-types.js';
export type { ReviewedBy, ReviewedMark } from './reviewed-types.js';
export type { RuleAcceptance, RuleBatchesApi } from './rule-batch-types.js';
export type { ReviewPriorityApi } from './review-priority-types.js';
export type { CostKind, LearntCosts, LearntCostsApi } from './learnt-costs-types.js';

export interface LibraryStore {
  readonly file: string;
  close(): void;
  /** PRAGMA integrity_check, "ok" when sound. */
  integrityCheck(): string;
  /**
   * Runs `fn` as one transaction: all of its writes are kept or none is, even if the process is
   * killed in between (a result saved without its ledger entry would be frames the ledger misses).
   */
  transaction<T>(fn: () => T): T;
  /**
   * A mark that moves whenever the library is written: by another connection (data_version) or
   * by this one (rows changed). Read as a transaction's first statement, it is that snapshot's.
   */
  changeMark(): string;
  /**
   * Whether another thread's write waits for this connection's transaction to end: only a bulk
   * writer's connection (`bulk` when opened) is ever waited for (write-turns.ts).
   */
  writersWaiting(): boolean;
  /**
   * Runs a long series of write transactions (an import of 100k files): SQLite copies its log
   * into the database every ~40 MB meanwhile instead of every 4 MB (a page rewritten by several
   * transactions is copied once, not each time), then once at the end; with `checkpointAside`,
   * on a thread of its own instead; with `'once-large'`, there once the log reaches SQLite's own
   * checkpoint size (bulk-writes.ts).
   */
  bulkWrites<T>(
    fn: () => Promise<T>,
    options?: { checkpointAside?: boolean | 'once-large' },
  ): Promise<T>;

  /** COCO ids and fields a COCO import kept, for a COCO export (coco-ids-repo.ts). */
  coco: CocoIds;

  settings: {
    get(key: string): string | undefined;
    set(key: string, value: string): void;
  };

  folders: {
    add(path: string): FolderRow;
    remove(id: number): void;
    list(): FolderRow[];
    markScanned(id: number, at: number): void;
  };

  media: {
    /** Inserts or updates by path, many rows in one transaction; returns ids in input order. */
    upsertMany(rows: readonly MediaUpsert[]): number[];
    /**
     * `upsertMany` the cheaper way (an insert for a new path, the upsert only for the others); its
     * ids, when it gives them, in input order.
     */
    writeMany(rows: readonly MediaUpsert[]): number[];
    /**
     * Stores hashes (and probe results) of many rows in one transaction with a narrow UPDATE per
     * row, guarded by size and mtime; returns how many rows were updated. Nothing else changes.
     */
    setHashAndProbe(rows: readonly MediaReadResult[]): number;
    byPath(path: string): MediaRecord | undefined;
    byId(id: number): MediaRecord | undefined;
    /** path → size, mtime, hash and recorded identity for a folder: what a rescan compares against. */
    snapshot(folderId: number): Map<string, SnapshotEntry>;
    /**
     * `snapshot` a page at a time, in path order after `afterPath` (a rescan of 100k rows reads
     * it between turns of the event loop, so a quit is heard at once), each row saying whether it
     * is present (not an error): what a rescan needs to tell a row coming back.
     */
    snapshotPage(
      folderId: number,
      afterPath: string,
      limit: number,
    ): { path: string; entry: SnapshotEntry; present: boolean }[];
    /**
     * Whether any present row of the library lacks its content hash, from the hash index alone
     * (a library where every file is hashed answers at once instead of listing every row).
     */
    anyUnhashed(): boolean;
    /** The ids `list` gives for these options, in its order (path), all at once. */
    listIds(options: { folderIds?: readonly number[]; includeErrors?: boolean }): number[];
    markMissing(ids: readonly number[]): void;
    markError(id: number, code: string, message: string): void;
    /** Present media of the given folders (all when empty), ordered by path; with `includeErrors`, unreadable ones too. */
    list(options: {
      includeErrors?: boolean;
      folderIds?: readonly number[];
      kind?: MediaKind;
      limit?: number;
      afterPath?: string;
      /** Only rows still to hash (no content hash) or to probe (no width), filtered in SQL. */
      needing?: 'hash' | 'probe';
    }): MediaRecord[];
    /** A page of media with box counts for `solution`, ordered by path. */
    page(options: { solution: string; limit: number; afterPath?: string }): MediaPageRow[];
    count(): number;
  };

  results: {
    /** The stored result for this content and solution, if any (dedupe: never pay twice). */
    find(contentHash: string, solution: string): ResultRow | undefined;
    /** `find` for many contents in one query (a plan of 100k files): found ones by hash. */
    findMany(contentHashes: readonly string[], solution: string): Map<string, ResultRow>;
    /** The solution's results after `afterId`, in id order, at most `limit` (a whole library's). */
    ofSolution(solution: string, afterId: number, limit: number): ResultRow[];
    /** Saves a result and all its detections in one transaction; replaces a previous one. */
    save(result: ResultInput): ResultRow;
    /**
     * Saves many results in ONE transaction (all or none), each exactly as `save` would, in input
     * order (a later input for the same content and solution replaces an earlier one). Returns the
     * rows in input order. One commit for a batch instead of one per result.
     */
    saveMany(results: readonly ResultInput[]): ResultRow[];
    detections(resultId: number): DetectionRow[];
    /**
     * The boxes of results after `afterResultId`, in result id order (each result's in
     * `detections`' order), at most `limit` rows: the last result may be cut short. As arrays
     * (RAW_DETECTION_COLUMNS' order): a million boxes read ahead build no object each.
     */
    detectionsAfter(afterResultId: number, limit: number): RawDetection[];
    setReview(detectionId: number, review: ReviewState): void;
  };

  runs: {
    create(run: {
      serviceUrl: string;
      solution: string;
      estimateFrames: number;
      budgetFrames: number | null;
      at: number;
    }): number;
    /** `estimateFrames` replaces the estimate made at the start (a plan that grew as it ran). */
    finish(
      runId: number,
      at: number,
      status: 'done' | 'stopped' | 'failed',
      estimateFrames?: number,
    ): void;
    /** The service a run talked to (where its clips' jobs live); undefined for an unknown run. */
    serviceUrlOf(runId: number): string | undefined;
    /** Runs not ended that started at or after `at` (ms epoch): those of a lock's holder. */
    runningSince(at: number): number[];
  };

  submissions: SubmissionsApi;

  ledger: {
    record(entry: LedgerEntry): void;
    /** Frames spent (net of refunds) for a service since `since` (ms epoch). */
    spentSince(serviceUrl: string, since: number): number;
  };

  /** Frame costs learnt from the service's own count when its catalog does not publish them. */
  costs: LearntCostsApi;

  catalog: {
    saveSnapshot(serviceUrl: string, version: string, body: string, at: number): void;
    latest(serviceUrl: string): { version: string; body: string; at: number } | undefined;
  };

  corrections: {
    /** Every correction of this content and solution, in frame order. */
    forContent(contentHash: string, solution: string): CorrectionRow[];
    /**
     * Of these contents, the numbers of those that have one (`contents.id`, what corrections are
     * keyed on; given once, never changed: a bulk writer given one looks up none), and which
     * have any correction of the solution. One probe of the content index each.
     */
    contentsAmong(contentHashes: readonly string[], solution: string): ContentsAmong;
    byId(id: number): CorrectionRow | undefined;
    /**
     * Inserts (no id) or replaces (id) one correction in its own transaction, so an edit is on
     * disk the moment this returns. Returns the row as stored.
     */
    put(correction: CorrectionInput): CorrectionRow;
    /** Many corrections in ONE transaction (all or none): bulk accept, a track's relabel. */
    putMany(corrections: readonly CorrectionInput[]): CorrectionRow[];
    /**
     * Many corrections in ONE transaction, read back by nobody (an import of 100k files): the
     * library view's mirror is refreshed once per content at the end (from `fresh` where it
     * answers, else read back). Returns how many.
     */
    writeMany(corrections: readonly CorrectionInput[], fresh?: FreshContents): number;
    /**
     * A writer for a bulk writer's own transaction (call it inside `transaction`): each content's
     * corrections are written as they come, the library view's mirror at `finish`, which must
     * run before the transaction ends.
     */
    bulkWriter(): CorrectionsBulkWriter;
  };

  reviewed: {
    /**
     * Marks files reviewed for a solution at their current content, in ONE transaction (an
     * import can call it inside its own `transaction`). A file with no content hash yet, or an
     * unknown id, is skipped. Marking again refreshes the time and who. Returns the ids marked.
     */
    markReviewed(mediaIds: readonly number[], solution: string, by: ReviewedBy): number[];
    /** Takes the mark off; returns how many files had one. */
    unmarkReviewed(mediaIds: readonly number[], solution: string): number;
    /** The file's mark, only while its content is still the one reviewed. */
    of(mediaId: number, solution: string): ReviewedMark | undefined;
    /** How many files are reviewed (at their current content) for a solution. */
    count(solution: string): number;
  };

  /** Auto-accept batches (migration 8): each one undoable step. */
  ruleBatches: RuleBatchesApi;
  /** Expected corrections per file, cached for the library's sort (migration 9). */
  priority: ReviewPriorityApi;
  /** Paid answers that could not be read, kept raw with their file (issue 16 §3). */
  rawAnswers: RawAnswersApi;
  /** A team project's link and changes (migration 10, electron/core/team/). */
  team: TeamApi;

  /** Streams labelled items for export, in path order, without loading the library into memory. */
  exportItems(query: ExportQuery): IterableIterator<ExportItem>;
}

export type {
  HeldAnswerInput,
  RawAnswerInput,
  RawAnswerRow,
  RawAnswersApi,
} from './raw-answer-types.js';

/** What `corrections.contentsAmong` finds of a list of contents. */
export interface ContentsAmong {
  numbers: Map<string, number>;
  corrected: Set<string>;
}
