/**
 * What an import knows from its read of the library before its writes (which contents had
 * corrections, whether any file had a stored review priority) holds only while nobody else
 * writes: a person's correction committed mid-import is read and kept, and stored priorities are
 * scored again from the imported boxes.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildLibrary, realContentHash } from '../../../bench/bench-library.js';
import { importLabels } from '../../../electron/application/import-labels.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { openDatabase } from '../../../electron/node-lib/sqlite.js';
import { movedCocoLabels } from '../../support/moved-coco-labels.js';
import { tempDir } from '../../support/temp-dir.js';

/** 10 boxes each: the first slice (200 rows) takes about 18 files, the rest come after it. */
const IMAGES = 60;

let t: { dir: string; remove: () => Promise<void> };
beforeAll(async () => (t = await tempDir('labeldesk-import-known-')));
afterAll(() => t.remove());

/** A folder of its own for a test's labels. */
async function folder(name: string): Promise<string> {
  const dir = join(t.dir, name);
  await mkdir(dir);
  return dir;
}

it("reads a content's corrections afresh once someone else has written mid-import", async () => {
  const library = join(t.dir, 'edited.sqlite');
  buildLibrary(library, IMAGES);
  const store = openLibraryStore(library);
  const person = openLibraryStore(library);
  try {
    const labels = await movedCocoLabels(store, await folder('edited'));
    const last = realContentHash(IMAGES - 1);
    const result = store.results.find(last, 'objects');
    const box = result && store.results.detections(result.id)[0];
    if (!box) throw new Error('no model box');
    let slices = 0;
    const summary = await importLabels(store, {
      format: 'coco',
      source: labels,
      solution: 'objects',
      // After the first slice, before the last file's: a person rejects one of its boxes.
      onProgress: () => {
        if (slices++ === 0) person.results.setReview(box.id, 'rejected');
      },
    });
    expect(slices).toBeGreaterThan(1);
    const last_ = store.media.list({ limit: IMAGES }).find((m) => m.contentHash === last);
    expect(summary.issues.map((i) => [i.code, i.path])).toEqual([['has_corrections', last_?.path]]);
    expect(summary.files).toBe(IMAGES - 1);
    // The person's correction, alone: nothing imported over it.
    const kept = store.corrections.forContent(last, 'objects');
    expect(kept.map((c) => [c.review, c.personMade])).toEqual([['rejected', false]]);
  } finally {
    person.close();
    store.close();
  }
});

it('scores files with a stored review priority again from the imported boxes', async () => {
  const library = join(t.dir, 'scored.sqlite');
  buildLibrary(library, 3);
  const store = openLibraryStore(library);
  try {
    const media = store.media.list({ limit: 3 });
    const basis = { thresholds: [], medians: [] };
    store.priority.replace('objects', 'before', basis, [[media[0]?.id ?? 0, 123]]);
    const labels = await movedCocoLabels(store, await folder('scored'));
    const summary = await importLabels(store, {
      format: 'coco',
      source: labels,
      solution: 'objects',
    });
    expect(summary).toMatchObject({ files: 3, issues: [] });
  } finally {
    store.close();
  }
  const db = openDatabase(library);
  try {
    const score = db.prepare('SELECT score FROM review_priority').pluck().all();
    // Every box now accepted by the import: nothing left to review in that file.
    expect(score).toEqual([0]);
  } finally {
    db.close();
  }
});
