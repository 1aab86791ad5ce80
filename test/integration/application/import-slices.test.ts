/**
 * An import writes in slices bounded by rows, not only by the clock: each transaction (one
 * synchronous piece of the UI's thread, its mirror, marks and commit included) plans and writes at
 * most SLICE_ROWS rows (a file and its boxes). The clock is held still, as a loaded machine or a
 * collection can make a slice's time look short; bounded by time alone, one slice took the whole
 * batch of 2,000 files.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildLibrary } from '../../../bench/bench-library.js';
import {
  importLabels,
  nextSliceRows,
  SLICE_MS,
  SLICE_ROWS,
} from '../../../electron/application/import-labels.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { movedCocoLabels } from '../../support/moved-coco-labels.js';
import { tempDir } from '../../support/temp-dir.js';

/** 10 boxes each: 11,000 rows, more than two full slices' worth (one batch of files). */
const IMAGES = 1000;

let t: { dir: string; remove: () => Promise<void> };
beforeAll(async () => (t = await tempDir('labeldesk-import-slices-')));
afterAll(() => t.remove());

/** Counts the rows each transaction writes: files marked reviewed and corrections written. */
function countRowsPerTransaction(store: LibraryStore): number[] {
  const perTransaction: number[] = [];
  let rows = 0;
  const transaction = store.transaction.bind(store);
  store.transaction = <T>(fn: () => T): T => {
    rows = 0;
    const r = transaction(fn);
    perTransaction.push(rows);
    return r;
  };
  const bulkWriter = store.corrections.bulkWriter.bind(store.corrections);
  store.corrections.bulkWriter = () => {
    const writer = bulkWriter();
    return {
      write: (corrections, known) => {
        rows += corrections.length;
        writer.write(corrections, known);
      },
      finish: () => writer.finish(),
    };
  };
  const markReviewed = store.reviewed.markReviewed.bind(store.reviewed);
  store.reviewed.markReviewed = (ids, solution, by) => {
    rows += ids.length;
    return markReviewed(ids, solution, by);
  };
  return perTransaction;
}

it('writes each slice of an import within SLICE_ROWS rows, whatever the clock says', async () => {
  const library = join(t.dir, 'library.sqlite');
  buildLibrary(library, IMAGES);
  const store = openLibraryStore(library);
  try {
    // Every box moved, so each becomes a correction of the model box it overlaps.
    const labels = await movedCocoLabels(store, t.dir);

    const perTransaction = countRowsPerTransaction(store);
    vi.spyOn(performance, 'now').mockReturnValue(0);
    const summary = await importLabels(store, {
      format: 'coco',
      source: labels,
      solution: 'objects',
    });
    vi.restoreAllMocks();

    expect(summary).toMatchObject({ files: IMAGES, boxes: IMAGES * 10, issues: [] });
    const written = perTransaction.reduce((a, b) => a + b, 0);
    expect(written).toBe(IMAGES * 11);
    expect(perTransaction.length).toBeGreaterThan(3);
    expect(Math.max(...perTransaction)).toBeLessThanOrEqual(SLICE_ROWS);
    expect(store.reviewed.count('objects')).toBe(IMAGES);
  } finally {
    store.close();
  }
});

it('starts with small slices and grows them while they keep to their time, shrinks them when not', () => {
  const within = SLICE_MS / 3;
  expect(nextSliceRows(200, within)).toBe(400);
  expect(nextSliceRows(SLICE_ROWS - 100, within)).toBe(SLICE_ROWS);
  expect(nextSliceRows(SLICE_ROWS, 0)).toBe(SLICE_ROWS);
  // A little over: kept; well over (a cold start, a loaded machine): halved, never below 100.
  expect(nextSliceRows(400, SLICE_MS * 1.3)).toBe(400);
  expect(nextSliceRows(400, SLICE_MS * 2)).toBe(200);
  expect(nextSliceRows(150, SLICE_MS * 3)).toBe(100);
});
