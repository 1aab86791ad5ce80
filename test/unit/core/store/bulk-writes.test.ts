/**
 * Bulk writes with their checkpoints aside (an import, on the UI's thread): the writing
 * connection never copies its log into the database on commit; a thread of its own does, while
 * the writes go on, and everything is in the database file once they are done.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bulkWrites, followCopiesAside } from '../../../../electron/core/store/bulk-writes.js';
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

/** Whether the database file grows by 1 MB within 20 s while the writer only waits. */
async function databaseGrows(before: number): Promise<boolean> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (statSync(file).size > before + 1_000_000) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/** After a series with checkpoints aside: SQLite's own setting is back and the log all copied. */
function expectSettledAfterAside(grewDuring: boolean): void {
  // Only the other thread could grow the database file while the writer waited.
  expect(grewDuring).toBe(true);
  expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  const [state] = db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
  expect(state?.checkpointed).toBe(state?.log);
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
        grewDuring = await databaseGrows(before);
      },
      { checkpointAside: true },
    );
    expectSettledAfterAside(grewDuring);
  });

  it('leaves the connection as it found it when series overlap and end in either order', async () => {
    let endFirst: () => void = () => undefined;
    const first = bulkWrites(db, file, () => new Promise<void>((r) => (endFirst = r)));
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    // A second series (a rescan during a run) outlives the first.
    await bulkWrites(db, file, async () => {
      endFirst();
      await first;
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});

const logPages = () => (db.pragma('wal_checkpoint(NOOP)') as { log: number }[])[0]?.log ?? -1;

describe('bulkWrites with checkpoints aside once the log is large (a labelling run)', () => {
  it('copies nothing of a short series, leaving the log as SQLite would', async () => {
    await bulkWrites(
      db,
      file,
      async () => {
        expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
        db.prepare('INSERT INTO rows (body) VALUES (?)').run('x'.repeat(1000));
        await new Promise((r) => setTimeout(r, 600));
      },
      { checkpointAside: 'once-large' },
    );
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const [state] = db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
    expect(state?.log).toBeGreaterThan(0);
    expect(state?.checkpointed).toBe(0);
  });

  it('copies a large log on another thread, never on the writer, and all of it at the end', async () => {
    const before = statSync(file).size;
    let grewDuring = false;
    await bulkWrites(
      db,
      file,
      async () => {
        // ~6 MB: past SQLite's own 1000 pages, so a thread starts and copies it.
        for (let i = 0; i < 3; i++) writeSome();
        expect(logPages()).toBeGreaterThan(1000);
        grewDuring = await databaseGrows(before);
        expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      },
      { checkpointAside: 'once-large' },
    );
    expectSettledAfterAside(grewDuring);
  });
});

describe('a connection of writes people wait for, beside a series copying aside', () => {
  it('copies nothing on its commits while the log is copied aside, then its own setting again', async () => {
    const person = openDatabase(file, { writeTurns: 'announced', onWriteTurn: followCopiesAside });
    try {
      person.pragma('wal_autocheckpoint = 500');
      const edit = person.prepare('INSERT INTO rows (body) VALUES (?)');
      const setting = () => person.pragma('wal_autocheckpoint', { simple: true });
      let during: unknown;
      await bulkWrites(
        db,
        file,
        async () => {
          writeSome();
          edit.run('an edit');
          during = setting();
        },
        { checkpointAside: true },
      );
      expect(during).toBe(0);
      edit.run('another edit');
      expect(setting()).toBe(500);
    } finally {
      person.close();
    }
  });
});
