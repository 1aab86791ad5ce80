/**
 * A photo about to be sent is checked and read on one descriptor: the bytes handed to the upload
 * are the file that was checked; a file swapped for another (same name) is refused and not read.
 */
import { rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAndReadMedia } from '../../../../electron/core/library/media-identity.js';
import { fileIdOf } from '../../../../electron/core/library/stat-later.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  t = await tempDir('check-and-read-');
});
afterEach(() => t.remove());

async function probed(path: string) {
  const st = await stat(path);
  return {
    path,
    size: st.size,
    mtimeMs: st.mtimeMs,
    width: 64,
    status: 'present' as const,
    fileId: fileIdOf(st),
    errorCode: null,
  };
}

describe('checking a photo and reading it on the same descriptor', () => {
  it('hands back the bytes of the file checked', async () => {
    const path = join(t.dir, 'a.jpg');
    await writeFile(path, Buffer.from('the photo as probed'));
    const got = await checkAndReadMedia(await probed(path), t.dir, 1024);
    expect(got).toEqual({ bytes: Buffer.from('the photo as probed') });
  });

  it('reads nothing past the size given: only the check', async () => {
    const path = join(t.dir, 'a.jpg');
    await writeFile(path, Buffer.from('the photo as probed'));
    expect(await checkAndReadMedia(await probed(path), t.dir, 4)).toEqual({});
  });

  it('refuses a file replaced since the probe, and hands back none of its bytes', async () => {
    const path = join(t.dir, 'a.jpg');
    await writeFile(path, Buffer.from('the photo as probed'));
    const media = await probed(path);
    await writeFile(join(t.dir, 'other'), Buffer.from('another file, same size'.slice(0, 19)));
    await rename(join(t.dir, 'other'), path);
    expect(await checkAndReadMedia(media, t.dir, 1024)).toMatchObject({ code: 'file_replaced' });
  });
});
