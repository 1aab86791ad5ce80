import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectMedia, selectedMedia } from '../../../electron/application/collect-media.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { jpeg } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
let store: LibraryStore;
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-collect-media-'));
  store = openLibraryStore(path.join(dir, 'library.sqlite'));
});
afterEach(async () => {
  store.close();
  await remove();
});

describe('collectMedia (the scan writes on its own thread: needs `npm run build:node`)', () => {
  it('gives the selection exactly as the store holds it, rows kept from the scan included', async () => {
    const photos = path.join(dir, 'photos');
    await mkdir(path.join(photos, 'sub'), { recursive: true });
    for (let i = 0; i < 30; i++)
      await writeFile(path.join(photos, `img-${i}.jpg`), await jpeg(16 + i, 12, i));
    await copyFile(path.join(photos, 'img-0.jpg'), path.join(photos, 'sub/copy.jpg'));
    // Read after the scan (not a JPEG), refused by its header, and not media at all.
    const png = await sharp({
      create: { width: 9, height: 7, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .png()
      .toBuffer();
    await writeFile(path.join(photos, 'sub/picture.png'), png);
    await writeFile(path.join(photos, 'bad.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    await writeFile(path.join(photos, 'notes.txt'), 'x');

    const cold = await collectMedia(store, [photos]);
    // The same selection read back from the store, every column, in path order.
    expect(cold.media).toEqual(selectedMedia(cold));
    expect(cold.media).toHaveLength(33);
    expect(cold.media.find((m) => m.path.endsWith('picture.png'))).toMatchObject({ width: 9 });
    expect(cold.media.find((m) => m.path.endsWith('bad.jpg'))?.status).toBe('error');
    // A warm run (nothing written) reads the same rows.
    expect((await collectMedia(store, [photos])).media).toEqual(cold.media);
  });
});
