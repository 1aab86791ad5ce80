import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryIssue } from '../../../../electron/core/library/media-types.js';
import { readOnScan } from '../../../../electron/core/library/read-on-scan.js';
import { createReadPool } from '../../../../electron/core/library/read-pool.js';
import { fresh } from '../../../../electron/core/library/reconcile.js';
import { fileIdOf, UNSTATED } from '../../../../electron/core/library/stat-later.js';
import { jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await tempDir('labeldesk-read-on-scan-')));
afterEach(() => remove());

const unstated = (file: string) =>
  fresh(1, { path: file, kind: 'image', size: UNSTATED, mtimeMs: UNSTATED });

describe('readOnScan with files the walk left unstated (worker threads; needs the build)', () => {
  it('takes size, time and identity from the read, and drops a vanished file with the walk\u2019s issue', async () => {
    const photo = path.join(dir, 'photo.jpg');
    await writeFile(photo, await jpeg(16, 12, 3));
    const gone = path.join(dir, 'gone.jpg');
    const issues: LibraryIssue[] = [];
    const pool = createReadPool(1);
    try {
      const rows = await readOnScan(pool, undefined, (i) => issues.push(i))([
        unstated(photo),
        unstated(gone),
      ]);
      const st = statSync(photo);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        path: photo,
        size: st.size,
        mtimeMs: st.mtimeMs,
        fileId: fileIdOf(st),
        width: 16,
        height: 12,
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(issues).toEqual([
        {
          path: gone,
          code: 'vanished',
          message: 'It was deleted or moved while the folder was scanned.',
        },
      ]);
    } finally {
      await pool.close();
    }
  });

  it('stats the rows itself when the read is stopped: plain rows, never an unstated one', async () => {
    const photo = path.join(dir, 'photo.jpg');
    await writeFile(photo, await jpeg(16, 12, 4));
    const pool = createReadPool(1);
    try {
      const stop = new AbortController();
      stop.abort(new Error('stopped'));
      const rows = await readOnScan(pool, stop.signal, () => undefined)([unstated(photo)]);
      const st = statSync(photo);
      expect(rows).toEqual([
        { ...unstated(photo), size: st.size, mtimeMs: st.mtimeMs, fileId: fileIdOf(st) },
      ]);
    } finally {
      await pool.close();
    }
  });
});
