/**
 * The library database as it persists, under the corrected set: every repository writes the rows
 * it is given and nothing more. The corrected set (core/review) owns what follows a change of the
 * corrected boxes (the library view's mirror, review priority) and composes `LibraryStore` over
 * these.
 */
import type { ExportItem, ExportQuery } from './export-types.js';
import type { MirrorWrites } from './mirror-writes.js';
import type { RuleBatchesApi } from './rule-batch-types.js';
import type {
  ContentsAmong,
  CorrectionInput,
  CorrectionRow,
  DetectionRow,
  LibraryStore,
  MediaKind,
  MergeCorrection,
  ResultInput,
  ResultRow,
} from './store-types.js';

/** A writer for a bulk writer's own transaction: each content's rows as they come. */
export interface RawCorrectionsWriter {
  /**
   * One content's corrections (inserted without id, replaced with one); `contentId`: the
   * content's number if the caller read it (`contentsAmong`), else it is looked up.
   */
  write(corrections: readonly CorrectionInput[], contentId?: number): void;
}

export interface CorrectionRows {
  forContent(contentHash: string, solution: string): CorrectionRow[];
  contentsAmong(contentHashes: readonly string[], solution: string): ContentsAmong;
  byId(id: number): CorrectionRow | undefined;
  /** Inserts (no id) or replaces (id) one row in its own transaction; the row as stored. */
  put(correction: CorrectionInput): CorrectionRow;
  /** Many rows in ONE transaction (all or none). */
  putMany(corrections: readonly CorrectionInput[]): CorrectionRow[];
  bulkWriter(): RawCorrectionsWriter;
}

export type ResultRows = Omit<LibraryStore['results'], 'setReview' | 'findMany'> & {
  findMany(contentHashes: readonly string[], solution: string): Map<string, ResultRow>;
  /** `save` inside the caller's transaction (no savepoint of its own: a batch is one commit). */
  write(result: ResultInput): ResultRow;
  /** The result, content and solution a detection belongs to. */
  ownerOf(
    detectionId: number,
  ): { resultId: number; contentHash: string; solution: string } | undefined;
};

/**
 * An auto-accept batch's rows, written inside the caller's transaction (`apply` as the API's, the
 * batch's id); the corrected set mirrors the contents they touch.
 */
export interface RuleBatchRows extends Omit<RuleBatchesApi, 'undo'> {
  /**
   * Undoes a batch's rows and resets the mirror of the contents it touched to the model's own
   * state; null if unknown or undone.
   */
  undo(batchId: number): { boxes: number; solution: string; contents: string[] } | null;
}

/** One item's boxes as an export writes them, from its model rows and corrections. */
export type ExportBoxesFn = (
  model: DetectionRow[],
  corrections: readonly MergeCorrection[],
  query: ExportQuery,
  kind: MediaKind,
) => DetectionRow[];

export interface LibraryDatabase extends Omit<
  LibraryStore,
  'corrections' | 'results' | 'ruleBatches' | 'exportItems'
> {
  corrections: CorrectionRows;
  results: ResultRows;
  ruleBatches: RuleBatchRows;
  mirror: MirrorWrites;
  /** Streams labelled items for export, each item's boxes made by `boxesOf`. */
  exportItems(query: ExportQuery, boxesOf: ExportBoxesFn): IterableIterator<ExportItem>;
}

/** What the corrected set writes (and reads back to mirror): a narrow port of the database. */
export type CorrectedSetRows = Pick<
  LibraryDatabase,
  'transaction' | 'corrections' | 'results' | 'ruleBatches' | 'priority' | 'mirror'
>;
