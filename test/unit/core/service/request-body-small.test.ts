import { randomBytes } from 'node:crypto';
import { rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../../../../electron/core/service/request-body.js';
import { UploadSourceError } from '../../../../electron/core/service/service-errors.js';
import { tempDir } from '../../../support/temp-dir.js';

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('labeldesk-body-small-');
});
afterAll(() => tmp.remove());

/** A photo-sized upload (one chunk) is read synchronously while the disk is fast: same wire, same errors. */
describe('multipartBody, small files', () => {
  it('sends exactly the bytes of a one-chunk file, read only when the transport asks', async () => {
    const path = join(tmp.dir, 'photo.jpg');
    const bytes = randomBytes(40_000);
    await writeFile(path, bytes);
    const body = await multipartBody('objects', path, () => undefined);
    const head = await body.chunks.next();
    expect(body.progress.complete).toBe(false);
    // Changed after the stat, before the read: the upload carries the bytes it reads then.
    const later = randomBytes(40_000);
    await writeFile(path, later);
    const chunks: Uint8Array[] = [head.value as Uint8Array];
    for await (const c of body.chunks) chunks.push(c);
    const wire = Buffer.concat(chunks);
    expect(wire.length).toBe(body.length);
    expect(body.progress).toMatchObject({ complete: true, bytesSent: body.length });
    expect(wire.indexOf(later)).toBeGreaterThan(0);
  });

  it('fails as UploadSourceError when a small file shrinks or vanishes before it is read', async () => {
    for (const spoil of [(p: string) => truncate(p, 10), (p: string) => rm(p)]) {
      const path = join(tmp.dir, 'spoiled.jpg');
      await writeFile(path, randomBytes(5_000));
      const body = await multipartBody('objects', path, () => undefined);
      await body.chunks.next();
      await spoil(path);
      await expect(
        (async () => {
          for (;;) if ((await body.chunks.next()).done) return;
        })(),
      ).rejects.toBeInstanceOf(Error);
      expect(body.progress.sourceError).toBeDefined();
      expect(body.progress.complete).toBe(false);
    }
    const shrunk = join(tmp.dir, 'shrunk.jpg');
    await writeFile(shrunk, randomBytes(5_000));
    const body = await multipartBody('objects', shrunk, () => undefined);
    await body.chunks.next();
    await truncate(shrunk, 10);
    await expect(body.chunks.next()).rejects.toBeInstanceOf(UploadSourceError);
  });

  it('still sends an empty file', async () => {
    const path = join(tmp.dir, 'empty.jpg');
    await writeFile(path, '');
    const body = await multipartBody('objects', path, () => undefined);
    let n = 0;
    for await (const c of body.chunks) n += c.byteLength;
    expect(n).toBe(body.length);
    expect(body.progress.complete).toBe(true);
  });
});
