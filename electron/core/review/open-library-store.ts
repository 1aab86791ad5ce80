/**
 * The library as the app, the CLI and core use it: the database's repositories, with every write
 * of corrected boxes (corrections, results, auto-accept batches) going through the corrected set,
 * and exports merging through it.
 */
import type { LibraryDatabase } from '../store/library-database-types.js';
import { openLibraryDatabase, type LibraryStoreOptions } from '../store/open-library-database.js';
import type { LibraryStore } from '../store/store-types.js';
import { CorrectedSet } from './corrected-set.js';
import { exportBoxes } from './export-boxes.js';

export type { LibraryStoreOptions };

const sets = new WeakMap<object, CorrectedSet>();

/** The corrected set a store opened by `openLibraryStore` writes through. */
export function correctedSetOf(store: object): CorrectedSet {
  const set = sets.get(store);
  if (!set) throw new Error('This library store was not opened with openLibraryStore.');
  return set;
}

/** The library store over an open database. */
export function libraryStoreOver(db: LibraryDatabase): LibraryStore {
  const set = new CorrectedSet(db);
  // The rows' writer of the mirror and the bare export stay below: only the set uses them.
  const { corrections, results, ruleBatches, mirror: _mirror, exportItems: _export, ...rest } = db;
  const store: LibraryStore = {
    ...rest,
    corrections: {
      forContent: (contentHash, solution) => corrections.forContent(contentHash, solution),
      contentsAmong: (hashes, solution) => corrections.contentsAmong(hashes, solution),
      byId: (id) => corrections.byId(id),
      put: (c) => set.put(c),
      putMany: (cs) => set.putMany(cs),
      writeMany: (cs, fresh) => set.writeMany(cs, fresh),
      bulkWriter: () => set.bulkWriter(),
    },
    results: {
      find: (contentHash, solution) => results.find(contentHash, solution),
      findMany: (hashes, solution) => results.findMany(hashes, solution),
      ofSolution: (solution, afterId, limit) => results.ofSolution(solution, afterId, limit),
      save: (r) => set.saveResult(r),
      saveMany: (rs) => set.saveResults(rs),
      detections: (resultId) => results.detections(resultId),
      detectionsAfter: (afterResultId, limit) => results.detectionsAfter(afterResultId, limit),
      setReview: (detectionId, review) => set.setReview(detectionId, review),
    },
    ruleBatches: {
      unreviewed: (solution) => ruleBatches.unreviewed(solution),
      apply: (solution, target, files, contents) =>
        set.applyRules(solution, target, files, contents),
      undo: (batchId) => set.undoRules(batchId),
      latest: (solution) => ruleBatches.latest(solution),
    },
    exportItems: (query) => db.exportItems(query, exportBoxes),
  };
  sets.set(store, set);
  return store;
}

export function openLibraryStore(file: string, options: LibraryStoreOptions = {}): LibraryStore {
  return libraryStoreOver(openLibraryDatabase(file, options));
}
