import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, type TrackedBody } from '../../../../electron/core/service/request-body.js';
import { UploadSourceError } from '../../../../electron/core/service/service-errors.js';
import { tempDir } from '../../../support/temp-dir.js';

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('labeldesk-body-');
});
afterAll(() => tmp.remove());

async function drain(body: TrackedBody): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body.chunks) {
    expect(body.progress.complete).toBe(body.progress.bytesSent === body.length);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

describe('multipartBody', () => {
  it('frames solution before file, with an exact Content-Length', async () => {
    const path = join(tmp.dir, 'a "quoted".jpg');
    const bytes = Buffer.alloc(600_000, 7);
    await writeFile(path, bytes);
    let chunks = 0;
    const body = await multipartBody('objects', path, () => chunks++);
    expect(body.progress.complete).toBe(false);
    const wire = await drain(body);
    expect(wire.length).toBe(body.length);
    expect(body.progress).toMatchObject({ complete: true, bytesSent: body.length });
    const text = wire.toString('latin1');
    const boundary = /boundary=(.+)$/.exec(body.contentType)![1]!;
    expect(text.indexOf('name="solution"')).toBeLessThan(text.indexOf('name="file"'));
    expect(text).toContain('filename="a %22quoted%22.jpg"\r\nContent-Type: image/jpeg\r\n\r\n');
    expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
    // Several pulls, each one resetting the inactivity timeout.
    expect(chunks).toBeGreaterThan(3);
  });

  it('gives every body its own boundary, long and not guessable from the file', async () => {
    const bytes = Buffer.from('photo bytes');
    const boundaries = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const body = await multipartBody('objects', bytes, () => undefined, 'p.jpg');
      boundaries.add(/boundary=(.+)$/.exec(body.contentType)![1]!);
      await body.dispose();
    }
    expect(boundaries.size).toBe(50);
    for (const b of boundaries) expect(b).toMatch(/^----LabelDesk[0-9a-f]{32}$/);
  });

  it('reads nothing ahead of the consumer', async () => {
    const path = join(tmp.dir, 'big.mp4');
    await writeFile(path, '');
    await truncate(path, 50 * 1024 * 1024);
    let chunks = 0;
    const body = await multipartBody('objects', path, () => chunks++);
    await body.chunks.next();
    await new Promise((r) => setTimeout(r, 50));
    expect(chunks).toBe(1);
    await body.dispose();
    expect((await body.chunks.next()).done).toBe(true);
  });

  it('fails as UploadSourceError when the file shrinks mid-upload', async () => {
    const path = join(tmp.dir, 'shrinks.mp4');
    await writeFile(path, Buffer.alloc(2_000_000));
    const body = await multipartBody('objects', path, () => undefined);
    await body.chunks.next();
    await truncate(path, 1000);
    await expect(
      (async () => {
        for (;;) if ((await body.chunks.next()).done) return;
      })(),
    ).rejects.toBeInstanceOf(UploadSourceError);
    expect(body.progress.sourceError).toBeInstanceOf(UploadSourceError);
  });

  it('refuses a missing file before any request is made', async () => {
    await expect(multipartBody('objects', join(tmp.dir, 'nope.jpg'), () => 0)).rejects.toThrow(
      UploadSourceError,
    );
  });
});
