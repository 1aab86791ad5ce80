/**
 * Thumbnails of broken images made at the same moment: libvips keeps one error buffer per
 * process, so each failure's note could be another file's (a truncated JPEG "not a PNG"). Each
 * file must get its own words.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { thumbnailFor } from '../../../../electron/core/library/thumbnails.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await tempDir('labeldesk-thumb-errors-')));
afterAll(() => remove());

it('gives each of many broken images thumbnailed at once its own error message', async () => {
  const files: string[] = [];
  for (let i = 0; i < 60; i++) {
    const text = path.join(dir, `text-${i}.png`);
    const empty = path.join(dir, `empty-${i}.jpg`);
    await writeFile(text, `not a png ${i}`);
    await writeFile(empty, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    files.push(text, empty);
  }
  const cache = path.join(dir, 'thumbs');
  const results = await Promise.all(
    files.map((file, i) =>
      thumbnailFor({ path: file, kind: 'image', size: 0, mtimeMs: 0, contentHash: `h${i}` }, cache),
    ),
  );
  const wrong = results.flatMap((r, i) => {
    const file = files[i]!;
    const message = r.ok ? 'made' : r.message;
    const own = file.endsWith('.jpg')
      ? /JPEG datastream contains no image/.test(message)
      : !/JPEG datastream/.test(message) && !r.ok;
    return own ? [] : [`${path.basename(file)}: ${message}`];
  });
  expect(wrong).toEqual([]);
});
