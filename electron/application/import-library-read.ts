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

/** Each analysed content's result for the solution, by content hash. */
type Results = Map<string, ResultRow>;

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

/**
 * The whole library, indexed for matching, read a page at a time: one read of 100k rows (and
 * its index) held the loop for seconds before the first write. With each page, its contents'
 * results: read here while the labels are parsed on their thread (this thread waits for them),
 * rather than one query per file between the writes (0.5 s of 20k files).
 */
export async function libraryIndex(
  store: LibraryReadSource,
  solution: string,
  signal: AbortSignal | undefined,
): Promise<LibraryRead> {
  const index = new LibraryIndex();
  const results: Results = new Map();
  const corrected = new Set<string>();
  const unscored = !store.priority.anyScored(solution);
  const shared = new StringTable();
  let afterPath: string | undefined;
  for (;;) {
    const page = store.media.list({
      limit: PAGE,
      ...(afterPath !== undefined ? { afterPath } : {}),
    });
    index.add(page);
    const hashes = page.flatMap((m) => (m.contentHash ? [m.contentHash] : []));
    const found = store.results.findMany(hashes, solution);
    for (const hash of hashes) {
      const result = found.get(hash);
      // Held until the end beside the UI's heap: each row's strings but the hash (the media
      // row's own, already held) are the same across the library, so kept once.
      if (result) results.set(hash, slimResult(result, hash, shared));
    }
    for (const hash of store.corrections.correctedAmong(hashes, solution)) corrected.add(hash);
    if (page.length < PAGE) return { index, results, corrected, unscored };
    afterPath = page.at(-1)?.path;
    await letLoopGo(signal);
  }
}

/** A result row holding shared strings: its content hash `hash`, the others from `shared`. */
function slimResult(r: ResultRow, hash: string, shared: StringTable): ResultRow {
  const same = (text: string) => shared.strings[shared.indexOf(text)] as string;
  return {
    ...r,
    contentHash: hash,
    solution: same(r.solution),
    serviceUrl: same(r.serviceUrl),
    model: r.model === null ? null : same(r.model),
  };
}
