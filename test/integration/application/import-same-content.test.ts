/**
 * Two library files of the same content (a copy) in one import: the slice reads its files' state
 * at once, but the copy is planned against what the first file just wrote, so the content gets
 * one set of corrections (the copy is unchanged), not two.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildLibrary, realContentHash } from '../../../bench/bench-library.js';
import { importLabels } from '../../../electron/application/import-labels.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { movedCocoLabels } from '../../support/moved-coco-labels.js';
import { tempDir } from '../../support/temp-dir.js';

const IMAGES = 6;
const BOXES = 10;

let t: { dir: string; remove: () => Promise<void> };
beforeAll(async () => (t = await tempDir('labeldesk-import-same-content-')));
afterAll(() => t.remove());

it('plans a copy of a content against what the first file of it wrote in the same slice', async () => {
  const library = join(t.dir, 'library.sqlite');
  buildLibrary(library, IMAGES);
  const store = openLibraryStore(library);
  try {
    const [original] = store.media.list({ limit: 1 });
    if (!original) throw new Error('no media');
    // A copy of the first image and of the second, at other paths.
    store.media.upsertMany(
      [0, 1].map(realContentHash).map((contentHash, i) => ({
        ...original,
        path: `/data/copies/copy-${i}.jpg`,
        contentHash,
      })),
    );
    // Every box moved, so each becomes a correction of the model box it overlaps.
    const labels = await movedCocoLabels(store, t.dir);

    const summary = await importLabels(store, {
      format: 'coco',
      source: labels,
      solution: 'objects',
    });

    expect(summary.issues).toEqual([]);
    expect(summary).toMatchObject({ files: IMAGES, unchanged: 2 });
    // One correction per model box for each content, the copies' included.
    for (let i = 0; i < IMAGES; i++)
      expect(store.corrections.forContent(realContentHash(i), 'objects')).toHaveLength(BOXES);
  } finally {
    store.close();
  }
});
