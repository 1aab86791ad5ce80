import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadPool } from '../../../../electron/core/library/read-pool.js';
import { jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-read-pool-'));
});
afterEach(() => remove());

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('createReadPool (worker threads; needs `npm run build:node`)', () => {
  it('hashes and parses many files across its workers, answering in the order asked', async () => {
    const files: { path: string; kind: 'image'; bytes: Buffer }[] = [];
    for (let i = 0; i < 150; i++) {
      const bytes = await jpeg(8 + (i % 5), 6, i);
      const p = path.join(dir, `img-${i}.jpg`);
      await writeFile(p, bytes);
      files.push({ path: p, kind: 'image', bytes });
    }
    // Larger than one read buffer: streamed, hashed, and left for the main thread to probe.
    const large = Buffer.alloc(1024 * 1024 + 3, 7);
    await writeFile(path.join(dir, 'large.jpg'), large);
    const asked = [
      ...files.map((f) => ({ path: f.path, kind: f.kind })),
      { path: path.join(dir, 'large.jpg'), kind: 'image' as const },
      { path: path.join(dir, 'gone.jpg'), kind: 'image' as const },
    ];
    const pool = createReadPool(2);
    try {
      const reads = await pool.read(asked);
      expect(reads).toHaveLength(asked.length);
      files.forEach((f, i) => {
        const r = reads[i];
        expect(r).toMatchObject({ ok: true, hash: sha256(f.bytes), size: f.bytes.length });
        expect(r?.ok && r.probe).toMatchObject({ ok: true, info: { width: 8 + (i % 5) } });
      });
      expect(reads[150]).toMatchObject({ ok: true, hash: sha256(large), probe: undefined });
      // A bad file is one value with a code, and the batch goes on.
      expect(reads[151]).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      await pool.close();
    }
  });

  it('answers a small read made before its workers have started (read on this thread)', async () => {
    const files = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const bytes = await jpeg(10, 8, i);
        const p = path.join(dir, `first-${i}.jpg`);
        await writeFile(p, bytes);
        return { path: p, kind: 'image' as const, bytes };
      }),
    );
    const pool = createReadPool(2);
    try {
      const reads = await pool.read(files.map((f) => ({ path: f.path, kind: f.kind })));
      files.forEach((f, i) =>
        expect(reads[i]).toMatchObject({ ok: true, hash: sha256(f.bytes), size: f.bytes.length }),
      );
    } finally {
      await pool.close();
    }
  });

  it('stops at once when aborted and refuses work afterwards', async () => {
    const p = path.join(dir, 'a.jpg');
    await writeFile(p, await jpeg(8, 8, 1));
    const pool = createReadPool(2);
    try {
      const abort = new AbortController();
      const many = Array.from({ length: 20_000 }, () => ({ path: p, kind: 'image' as const }));
      const reading = pool.read(many, abort.signal);
      abort.abort(new Error('quit'));
      await expect(reading).rejects.toThrow('quit');
      await expect(pool.read(many.slice(0, 1))).rejects.toThrow();
    } finally {
      await pool.close();
    }
  });
});
