import { copyFile, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashFile } from '../../../../electron/core/library/hash-file.js';
import {
  thumbnailFor,
  type ThumbnailSource,
} from '../../../../electron/core/library/thumbnails.js';
import { clip } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let cache: string;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ dir, remove } = await tempDir('labeldesk-thumbs-'));
  cache = path.join(dir, 'cache');
});
afterAll(() => remove());

async function source(file: string, withHash = false): Promise<ThumbnailSource> {
  const st = await stat(file);
  const kind = file.endsWith('.mp4') ? 'video' : 'image';
  const contentHash = withHash ? (await hashFile(file)).hash : null;
  return { path: file, kind, size: st.size, mtimeMs: st.mtimeMs, contentHash };
}

/** 400×200 stored, orientation 6: shown as 200×400, left half red in storage = top half when shown. */
async function orientedJpeg(file: string) {
  const left = await sharp({
    create: { width: 200, height: 200, channels: 3, background: '#ff0000' },
  })
    .png()
    .toBuffer();
  await sharp({ create: { width: 400, height: 200, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toFile(file);
}

describe('thumbnailFor', () => {
  it('makes a 256-px WebP with EXIF orientation applied, then serves it from the cache', async () => {
    const file = path.join(dir, 'oriented.jpg');
    await orientedJpeg(file);
    const first = await thumbnailFor(await source(file), cache);
    expect(first).toMatchObject({ ok: true, cached: false });
    if (!first.ok) return;
    const meta = await sharp(first.file).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 128, 256]);
    // Rotated 90° clockwise: the stored left (red) half is now on top.
    const { data } = await sharp(first.file).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[2]).toBeLessThan(60);
    expect(await thumbnailFor(await source(file), cache)).toEqual({ ...first, cached: true });
  });

  it('is regenerated when the source changes', async () => {
    const file = path.join(dir, 'changing.png');
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#00ff00' } })
      .png()
      .toFile(file);
    const before = await thumbnailFor(await source(file), cache);
    await sharp({ create: { width: 64, height: 32, channels: 3, background: '#00ff00' } })
      .png()
      .toFile(file);
    await utimes(file, new Date(), new Date(Date.now() + 2000));
    // Even with a stale row (old size/mtime/hash), the file on disk decides.
    const stale = { ...(await source(file)), size: 1, contentHash: 'old' };
    const after = await thumbnailFor(stale, cache);
    expect(after).toMatchObject({ ok: true, cached: false });
    expect(after.ok && before.ok && after.file !== before.file).toBe(true);
    if (after.ok) expect((await sharp(after.file).metadata()).height).toBe(32);
  });

  it('shares one thumbnail between duplicates by content hash', async () => {
    const a = path.join(dir, 'dup-a.jpg');
    const b = path.join(dir, 'dup-b.jpg');
    await orientedJpeg(a);
    await copyFile(a, b);
    const ta = await thumbnailFor(await source(a, true), cache);
    const tb = await thumbnailFor(await source(b, true), cache);
    expect(tb).toMatchObject({ ok: true, cached: true });
    expect(ta.ok && tb.ok && ta.file === tb.file).toBe(true);
  });

  it('returns an error value for an undecodable or missing file', async () => {
    const bad = path.join(dir, 'bad.jpg');
    await writeFile(bad, 'nope');
    expect(await thumbnailFor(await source(bad), cache)).toMatchObject({
      ok: false,
      code: 'undecodable_media',
    });
    expect(
      await thumbnailFor({ ...(await source(bad)), path: path.join(dir, 'gone.jpg') }, cache),
    ).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('makes a thumbnail of a clip from its first frame', async () => {
    const file = await clip(dir, 'c.mp4', 1, '320x240', 10);
    const t = await thumbnailFor(await source(file), cache);
    expect(t).toMatchObject({ ok: true });
    if (t.ok) {
      const meta = await sharp(await readFile(t.file)).metadata();
      expect([meta.width, meta.height]).toEqual([256, 192]);
    }
  });
});
