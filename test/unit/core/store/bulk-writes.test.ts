/**
 * Bulk writes with their checkpoints aside (an import, on the UI's thread): the writing
 * connection never copies its log into the database on commit; a thread of its own does, while
 * the writes go on, and everything is in the database file once they are done.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bulkWrites } from '../../../../electron/core/store/bulk-writes.js';
import { openDatabase, type Db } from '../../../../electron/node-lib/sqlite.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let db: Db;
let file: string;

beforeEach(async () => {
  t = await tempDir('labeldesk-bulk-');
  file = join(t.dir, 'library.sqlite');
  db = openDatabase(file);
  db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
});
afterEach(async () => {
  db.close();
  await t.remove();
});

/** About 2 MB committed in a few transactions: far below SQLite's own 40 MB bulk checkpoint. */
function writeSome(): void {
  const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
  for (let tx = 0; tx < 4; tx++) {
    db.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run('x'.repeat(1000));
    })();
  }
}

describe('bulkWrites with checkpoints aside', () => {
  it('copies the log on another thread while the writes go on, and all of it at the end', async () => {
    const before = statSync(file).size;
    let grewDuring = false;
    await bulkWrites(
      db,
      file,
      async () => {
        expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
        writeSome();
        // The writer does nothing more; only the other thread can grow the database file.
        const deadline = Date.now() + 20_000;
        while (!grewDuring && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
          grewDuring = statSync(file).size > before + 1_000_000;
        }
      },
      { checkpointAside: true },
    );
    expect(grewDuring).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    // Nothing is left in the log to copy.
    const [state] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(state?.checkpointed).toBe(state?.log);
  });
});
