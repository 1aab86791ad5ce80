import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashMany, hashSmallFileSync } from '../../../../electron/core/library/hash-file.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await tempDir('labeldesk-hash-modes-')));
afterAll(() => remove());

describe('hashMany: small files synchronously while fast, the rest asynchronously', () => {
  it('gives the same results in both modes, big files, empty files and failures included', async () => {
    const contents = [randomBytes(3 * 1024 * 1024), randomBytes(1024 * 1024), Buffer.alloc(0)];
    const files = await Promise.all(
      contents.map(async (bytes, i) => {
        const file = path.join(dir, `f${i}.jpg`);
        await writeFile(file, bytes);
        return file;
      }),
    );
    files.push(path.join(dir, 'missing.jpg'), dir);
    const auto = await hashMany(files, { concurrency: 2 });
    const async = await hashMany(files, { concurrency: 2, mode: 'async' });
    expect(auto).toEqual(async);
    contents.forEach((bytes, i) =>
      expect(auto[i]).toMatchObject({
        hash: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
      }),
    );
    expect(auto[3]).toMatchObject({ error: { code: 'not_found' } });
    expect(auto[4]).toMatchObject({ error: { code: 'not_a_file' } });
  });

  it('hashSmallFileSync leaves a file larger than its buffer to the asynchronous path', () => {
    const file = path.join(dir, 'f0.jpg');
    expect(hashSmallFileSync(file, Buffer.alloc(1024))).toBeUndefined();
    expect(hashSmallFileSync(file, Buffer.alloc(4 * 1024 * 1024))?.size).toBe(3 * 1024 * 1024);
  });
});
