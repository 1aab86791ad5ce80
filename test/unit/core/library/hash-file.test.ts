import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashFile, hashMany } from '../../../../electron/core/library/hash-file.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await tempDir('labeldesk-hash-')));
afterAll(() => remove());

describe('hashFile / hashMany', () => {
  it('matches crypto over a file larger than one read buffer, and reports its stat', async () => {
    const bytes = randomBytes(2.5 * 1024 * 1024);
    const file = path.join(dir, 'big.mp4');
    await writeFile(file, bytes);
    const got = await hashFile(file);
    expect(got.hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(got.size).toBe(bytes.length);
  });

  it('hashes an empty file', async () => {
    await writeFile(path.join(dir, 'empty.jpg'), '');
    expect((await hashFile(path.join(dir, 'empty.jpg'))).hash).toBe(
      createHash('sha256').digest('hex'),
    );
  });

  it('gives duplicates under different names the same hash; failures are per-file values', async () => {
    const same = randomBytes(300_000);
    await writeFile(path.join(dir, 'one.jpg'), same);
    await writeFile(path.join(dir, 'copy of one.JPG'), same);
    await writeFile(path.join(dir, 'other.jpg'), randomBytes(10));
    const files = ['one.jpg', 'missing.jpg', 'copy of one.JPG', 'other.jpg'].map((f) =>
      path.join(dir, f),
    );
    const seen: string[] = [];
    const results = await hashMany(files, { concurrency: 3, onResult: (r) => seen.push(r.path) });
    expect(results.map((r) => r.path)).toEqual(files);
    expect(seen.sort()).toEqual([...files].sort());
    const [a, missing, b, c] = results as any[];
    expect(a.hash).toBe(b.hash);
    expect(c.hash).not.toBe(a.hash);
    expect(missing.error).toEqual({ code: 'not_found', message: expect.any(String) });
  });
});
