/**
 * Narrow ports of the library store, one per use (issue 22): a reader of media, a writer of
 * settings, the team's tables, ... A consumer names the port it uses, so what it can reach is
 * visible in its signature and a test's fake implements only that port. `LibraryStore` stays
 * the whole the opener returns (core/review/open-library-store.ts) and composition roots hold.
 */
import type { LibraryStore } from './store-types.js';

type Media = LibraryStore['media'];
type Results = LibraryStore['results'];

/** Stored settings, read only. */
export interface SettingsReader {
  settings: Pick<LibraryStore['settings'], 'get'>;
}
/** Stored settings, read and written. */
export type SettingsPort = Pick<LibraryStore, 'settings'>;

/** Media rows looked up and listed; nothing written. */
export interface MediaReader {
  media: Pick<Media, 'byId' | 'byPath' | 'list' | 'listIds' | 'page' | 'count' | 'snapshot'>;
}
/** The library's folders and their media rows, read only (what a run or an export collects). */
export type FolderMediaReader = MediaReader & { folders: Pick<LibraryStore['folders'], 'list'> };

/** Stored answers and their boxes, read only. */
export interface ResultsReader {
  results: Pick<Results, 'find' | 'findMany' | 'detections'>;
}
/** Model boxes read ahead of a writer, in result order, and whether anyone wrote since. */
export type BoxesAheadReader = Pick<LibraryStore, 'changeMark' | 'file'> & {
  results: Pick<Results, 'detectionsAfter'>;
};
/** What an import reads of the library before its writes (import-library-read.ts). */
export type LibraryReadSource = Pick<
  LibraryStore,
  'media' | 'results' | 'corrections' | 'priority'
>;
/** One all-or-nothing transaction around a use's own writes. */
export type TransactionPort = Pick<LibraryStore, 'transaction'>;
/** Corrections written (through the corrected set) inside one transaction. */
export type CorrectionsWriter = Pick<LibraryStore, 'corrections' | 'transaction'>;

/** The database file itself: a worker thread opens it on its own connection. */
export type StoreFile = Pick<LibraryStore, 'file'>;
/** Labelled items streamed for an export, and the file a worker streams them from. */
export type ExportSource = Pick<LibraryStore, 'file' | 'exportItems'>;

/** Paid answers kept raw (held or unreadable), read and written. */
export type RawAnswersPort = Pick<LibraryStore, 'rawAnswers'>;
/** Frame costs learnt from the service. */
export type CostsPort = Pick<LibraryStore, 'costs'>;
/** A team project's link, changes and marks (electron/core/team). */
export type TeamPort = Pick<LibraryStore, 'team'>;
/** Catalog snapshots stored per service. */
export type CatalogPort = Pick<LibraryStore, 'catalog'>;
/** The cached review priority per file (the library's "Review priority" sort). */
export type PriorityPort = Pick<LibraryStore, 'priority'>;
/** Files marked reviewed, read and written. */
export type ReviewedPort = Pick<LibraryStore, 'reviewed'>;
/** Frames spent and refunded per service. */
export type LedgerPort = Pick<LibraryStore, 'ledger'>;
/** Auto-accept batches: listed, applied and undone. */
export type RuleBatchesPort = Pick<LibraryStore, 'ruleBatches'>;
/** Corrections read back; nothing written. */
export interface CorrectionsReader {
  corrections: Pick<LibraryStore['corrections'], 'forContent' | 'byId'>;
}
/** What an export reads: labelled items, the COCO fields an import kept, roots and boxes. */
export type ExportReader = ExportSource &
  Pick<LibraryStore, 'coco'> &
  ResultsReader & { folders: Pick<LibraryStore['folders'], 'list'> };
/** What applying team changes writes: the team's tables and corrections, in one transaction. */
export type TeamApplyPort = CorrectionsWriter & TeamPort;
/** A team's answers shared and taken: stored answers (read and saved) and what was charged. */
export type TeamAnswersPort = TeamPort & Pick<LibraryStore, 'results' | 'submissions'>;
