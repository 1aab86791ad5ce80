/**
 * What an import reads of the library before its writes (import-labels.ts): the whole library
 * indexed for matching, each content's result, which contents have corrections, and whether any
 * file has a stored review priority.
 */
import { LibraryIndex } from '../core/import/match-files.js';
import type { LibraryReadSource } from '../core/store/store-ports.js';
import type { ResultRow } from '../core/store/store-types.js';
import { StringTable } from '../shared/string-table.js';

/**
 * Library files read, or labels matched, between two turns of the loop: a page of 2,000 rows
 * took 60-170 ms on a loaded machine.
 */
export const PAGE = 500;

export const letLoopGo = async (signal: AbortSignal | undefined) => {
  await new Promise((r) => setImmediate(r));
  signal?.throwIfAborted();
};

/**
 * A content's result for the solution, with the content's number (`contents.id`) where it has
 * one: read a page of files at a time while the labels are read, the writes then look none up (a
 * lookup a content was 0.75-0.9 s of a 100k import's writing thread). Numbers are given once and
 * never change.
 */
export type IndexedResult = ResultRow & { contentId?: number };

/** Each analysed content's result for the solution, by content hash. */
type Results = Map<string, IndexedResult>;

/** What the import read of the library before its writes began. */
export interface LibraryRead {
  index: LibraryIndex;
  results: Results;
  /**
   * The contents that had corrections of the solution, then those the import wrote: any other
   * has none while nobody else writes (ahead.unchangedByOthers), so its read is spared (100k
   * reads of nothing, 0.4-0.5 s of the import's thread at 100k).
   */
  corrected: Set<string>;
  /** No file had a stored review priority for the solution: no file to score again. */
  unscored: boolean;
}

/** The solution's results read at a time (a few ms each). */
const RESULTS_PAGE = 5000;

/**
 * The whole library, indexed for matching, read a page at a time: one read of 100k rows (and
 * its index) held the loop for seconds before the first write. Each content's result is read
 * here too, while the labels are parsed on their thread, rather than one query per file between
 * the writes (0.5 s of 20k files).
 */
export async function libraryIndex(
  store: LibraryReadSource,
  solution: string,
  signal: AbortSignal | undefined,
): Promise<LibraryRead> {
  const index = new LibraryIndex();
  const analysed = await solutionResults(store, solution, signal);
  const shared = new StringTable();
  const results: Results = new Map();
  const corrected = new Set<string>();
  const unscored = !store.priority.anyScored(solution);
  let afterPath: string | undefined;
  for (;;) {
    const page = store.media.list({
      limit: PAGE,
      ...(afterPath !== undefined ? { afterPath } : {}),
    });
    index.add(page);
    const hashes = page.flatMap((m) => (m.contentHash ? [m.contentHash] : []));
    const { numbers, corrected: correctedHere } = store.corrections.contentsAmong(hashes, solution);
    for (const hash of hashes) {
      const result = analysed.get(hash);
      // Held until the end of the import: each row's strings but the hash (the media row's own,
      // already held) are the same across the library, so kept once.
      if (result) results.set(hash, slimResult(result, hash, shared, numbers.get(hash)));
    }
    for (const hash of correctedHere) corrected.add(hash);
    if (page.length < PAGE) return { index, results, corrected, unscored };
    afterPath = page.at(-1)?.path;
    await letLoopGo(signal);
  }
}

/**
 * Every result of the solution, by content hash, read in id order a page at a time: one pass over
 * the table, where the contents' results looked up a page of files at a time probed the content
 * index once a file (100k: 250 against 580 ms, and a third of the objects).
 */
async function solutionResults(
  store: LibraryReadSource,
  solution: string,
  signal: AbortSignal | undefined,
): Promise<Results> {
  const all: Results = new Map();
  let after = 0;
  for (;;) {
    const page = store.results.ofSolution(solution, after, RESULTS_PAGE);
    for (const r of page) all.set(r.contentHash, r);
    if (page.length < RESULTS_PAGE) return all;
    after = page.at(-1)?.id ?? after;
    await letLoopGo(signal);
  }
}

/**
 * A result row holding shared strings (its content hash `hash`, the others from `shared`), and
 * its content's number.
 */
function slimResult(
  r: ResultRow,
  hash: string,
  shared: StringTable,
  contentId: number | undefined,
): IndexedResult {
  const same = (text: string) => shared.strings[shared.indexOf(text)] as string;
  return {
    ...r,
    contentHash: hash,
    solution: same(r.solution),
    serviceUrl: same(r.serviceUrl),
    model: r.model === null ? null : same(r.model),
    ...(contentId === undefined ? {} : { contentId }),
  };
}
