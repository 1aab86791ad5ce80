/**
 * A connection that takes write turns begins its transactions IMMEDIATE: one that reads, then
 * writes, while another connection (a process that takes no turns) holds the write lock, waits for
 * it instead of failing (a deferred one fails with SQLITE_BUSY).
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/node-lib/sqlite.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
beforeAll(async () => (t = await tempDir('labeldesk-write-turns-')));
afterAll(() => t.remove());

async function whileAnotherWrites(file: string, fn: () => void): Promise<void> {
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(new URL('../../support/other-writer-thread.ts', import.meta.url), {
    workerData: { file, flags: flags.buffer },
  });
  const exited = new Promise((r) => worker.once('exit', r));
  while (Atomics.load(flags, 0) === 0) await new Promise((r) => setTimeout(r, 1));
  try {
    fn();
  } finally {
    await exited;
  }
}

function notes(file: string, writeTurns?: 'announced') {
  const db = openDatabase(file, { writeTurns });
  db.exec('CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const count = db.prepare<[], number>('SELECT count(*) FROM notes').pluck();
  const add = db.prepare('INSERT INTO notes (text) VALUES (?)');
  const readThenWrite = db.transaction(() => add.run(`after ${count.get() ?? 0}`));
  return { db, readThenWrite, count };
}

it('waits for the write lock in a read-then-write transaction, where a deferred one fails', async () => {
  const turns = notes(join(t.dir, 'turns.sqlite'), 'announced');
  await whileAnotherWrites(turns.db.name, () => turns.readThenWrite());
  expect(turns.count.get()).toBe(2);
  turns.db.close();

  const bare = notes(join(t.dir, 'bare.sqlite'));
  let failure: unknown;
  await whileAnotherWrites(bare.db.name, () => {
    try {
      bare.readThenWrite();
    } catch (err) {
      failure = err;
    }
  });
  // SQLite refuses at once to turn a read into a write while another holds the lock (it could
  // deadlock), or after the other commits, as the read is then out of date (BUSY_SNAPSHOT).
  expect(failure).toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) as unknown });
  bare.db.close();
});
