/**
 * The app's and the CLI's import runs on a thread of its own with its own connection
 * (import-labels-in-worker.ts), as the bulk writer every other write of the process takes turns
 * with (write-turns.ts). It writes what the same import on this thread writes; this thread's own
 * writes meanwhile (a person's edit, a deferred read then write) are never refused nor starved;
 * it stops when cancelled, keeping what it committed; its failures are told as on this thread.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildLibrary, CLASSES } from '../../../bench/bench-library.js';
import { importLabels, type ImportFormat } from '../../../electron/application/import-labels.js';
import { importLabelsInWorker } from '../../../electron/application/import-labels-in-worker.js';
import { exportLibrary } from '../../../electron/core/export/export-library.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { movedCocoLabels } from '../../support/moved-coco-labels.js';
import { tempDir } from '../../support/temp-dir.js';

/** 10 boxes each: enough transactions for this thread's writes to meet them. */
const IMAGES = 1500;
const options = (source: string) => ({ format: 'coco' as const, source, solution: 'objects' });

let t: { dir: string; remove: () => Promise<void> };
let library: string;
let labels: string;
beforeAll(async () => {
  t = await tempDir('labeldesk-import-in-worker-');
  library = join(t.dir, 'library.sqlite');
  buildLibrary(library, IMAGES);
  const store = openLibraryStore(library);
  try {
    labels = await movedCocoLabels(store, t.dir);
  } finally {
    store.close();
  }
});
afterAll(() => t.remove());

/** A fresh copy of the analysed library, opened. */
async function freshLibrary(name: string): Promise<LibraryStore> {
  const file = join(t.dir, `${name}.sqlite`);
  await copyFile(library, file);
  return openLibraryStore(file);
}

/** The library's corrected boxes as a COCO file's text. */
async function exported(store: LibraryStore, name: string): Promise<string> {
  const out = join(t.dir, `${name}.json`);
  await exportLibrary({
    items: store.exportItems({ solution: 'objects' }),
    format: 'coco',
    out,
    classes: CLASSES,
  });
  // The export's own time aside.
  return (await readFile(out, 'utf8')).replace(/"date_created":"[^"]*"/, '');
}

/** Counts the transactions begun through this thread's store. */
function countTransactions(store: LibraryStore): { count: number } {
  const counter = { count: 0 };
  const transaction = store.transaction.bind(store);
  store.transaction = <T>(fn: () => T): T => {
    counter.count++;
    return transaction(fn);
  };
  return counter;
}

it('writes on its own thread exactly what the import writes on this one', async () => {
  const here = await freshLibrary('here');
  const there = await freshLibrary('there');
  try {
    const inThisThread = await importLabels(here, options(labels));
    const transactions = countTransactions(there);
    const progress: number[] = [];
    const inWorker = await importLabelsInWorker(there, {
      ...options(labels),
      onProgress: ({ done }) => progress.push(done),
    });

    expect(transactions.count).toBe(0);
    expect(inWorker).toEqual(inThisThread);
    expect(inWorker).toMatchObject({ files: IMAGES, boxes: IMAGES * 10, issues: [] });
    expect(progress.at(-1)).toBe(IMAGES);
    expect(there.reviewed.count('objects')).toBe(IMAGES);
    expect(await exported(there, 'there')).toBe(await exported(here, 'here'));
  } finally {
    here.close();
    there.close();
  }
});

it('is told its summary once every slice is committed, before the log is copied back', async () => {
  const store = await freshLibrary('committed');
  const steps: string[] = [];
  try {
    const summary = await importLabels(store, {
      ...options(labels),
      onCommitted: (s) => {
        // Another connection sees every file imported already.
        const other = openLibraryStore(store.file);
        try {
          steps.push(`committed ${s.files}: ${other.reviewed.count('objects')} reviewed`);
        } finally {
          other.close();
        }
      },
    });
    steps.push(`returned ${summary.files}`);
    expect(steps).toEqual([`committed ${IMAGES}: ${IMAGES} reviewed`, `returned ${IMAGES}`]);
  } finally {
    store.close();
  }
});

it("gives this thread's writes their turn: a read then a write is never refused, nor starved", async () => {
  const store = await freshLibrary('turns');
  try {
    let importing = true;
    const importing$ = importLabelsInWorker(store, options(labels)).finally(() => {
      importing = false;
    });
    const waits: number[] = [];
    let written = 0;
    while (importing) {
      const start = performance.now();
      // Deferred: a snapshot read first, then a write. Beside a writer that commits back to back
      // without turns, SQLite refuses the write (SQLITE_BUSY) once the snapshot is stale.
      store.transaction(() => {
        const before = Number(store.settings.get('bench.writes') ?? '0');
        store.settings.set('bench.writes', String(before + 1));
      });
      waits.push(performance.now() - start);
      written++;
      await new Promise((r) => setTimeout(r, 2));
    }
    const summary = await importing$;

    expect(summary).toMatchObject({ files: IMAGES, issues: [] });
    expect(written).toBeGreaterThan(10);
    expect(store.settings.get('bench.writes')).toBe(String(written));
    // Far below SQLite's 5 s busy timeout, which a starved write would run into.
    expect(Math.max(...waits)).toBeLessThan(1000);
  } finally {
    store.close();
  }
});

it('stops when cancelled, keeping the slices it committed; the next import does the rest', async () => {
  const store = await freshLibrary('cancelled');
  try {
    const cancel = new AbortController();
    const reason = new Error('cancelled by the test');
    const stopped = importLabelsInWorker(store, {
      ...options(labels),
      signal: cancel.signal,
      onProgress: ({ done }) => {
        if (done >= 100) cancel.abort(reason);
      },
    });
    await expect(stopped).rejects.toBe(reason);

    const kept = store.reviewed.count('objects');
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(IMAGES);
    expect(store.integrityCheck()).toBe('ok');
    const rest = await importLabelsInWorker(store, options(labels));
    expect(rest).toMatchObject({ files: IMAGES - kept, unchanged: kept, issues: [] });
  } finally {
    store.close();
  }
});

it('fails as the import on this thread fails, and tells the same issues', async () => {
  const store = await freshLibrary('failing');
  try {
    const missing = options(join(t.dir, 'no-such-labels.json'));
    expect(await importLabelsInWorker(store, missing)).toEqual(await importLabels(store, missing));
    // A format no reader knows (the contract refuses it first): the reading thread fails.
    const unknown = { ...options(labels), format: 'labelme' as ImportFormat };
    const here = await importLabels(store, unknown).catch((e: unknown) => e as Error);
    const there = await importLabelsInWorker(store, unknown).catch((e: unknown) => e as Error);
    expect(here).toBeInstanceOf(Error);
    expect(there).toBeInstanceOf(Error);
    expect((there as Error).message).toBe((here as Error).message);
    expect(store.reviewed.count('objects')).toBe(0);
  } finally {
    store.close();
  }
});
