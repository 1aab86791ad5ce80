/**
 * libvips keeps one error buffer per process: broken images read at the same moment could each
 * be stored with another's message (seen once in the suite: a truncated JPEG stored with the
 * TIFF reader's complaint about a text file). Each file must get its own words.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeMedia } from '../../../../electron/core/library/probe-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await tempDir('labeldesk-probe-errors-')));
afterAll(() => remove());

it('gives each of many broken images read at once its own error message', async () => {
  const files: { file: string; own: RegExp }[] = [];
  for (let i = 0; i < 60; i++) {
    const text = path.join(dir, `text-${i}.png`);
    const empty = path.join(dir, `empty-${i}.jpg`);
    await writeFile(text, `not a png ${i}`);
    await writeFile(empty, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    files.push({ file: text, own: /not a PNG|PNG|png|TIFF|unsupported image format/i });
    files.push({ file: empty, own: /JPEG datastream contains no image/ });
  }
  const results = await Promise.all(files.map((f) => probeMedia(f.file, 'image')));
  const wrong = results.flatMap((r, i) => {
    const { file, own } = files[i]!;
    const message = r.ok ? 'decoded' : r.message;
    const mixed = file.endsWith('.jpg') ? !own.test(message) : /JPEG datastream/.test(message);
    return mixed ? [`${path.basename(file)}: ${message}`] : [];
  });
  expect(wrong).toEqual([]);
});
