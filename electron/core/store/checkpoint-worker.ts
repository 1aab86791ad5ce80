/**
 * Copies the library's write-ahead log into the database on a thread of its own (checkpoint-aside.ts)
 * while a long series of writes runs on another connection: a PASSIVE checkpoint takes no lock a
 * writer waits for, so the writing thread never spends the copy (a 40 MB copy held it 0.4 s).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../node-lib/sqlite.js';

const port = parentPort;
if (!port) throw new Error('checkpoint-worker must run in a worker thread');
const { file, nativeBinding, everyMs, minPages } = workerData as {
  file: string;
  nativeBinding?: string;
  everyMs: number;
  /** Copy only once the log holds this many pages (0: at every tick). */
  minPages: number;
};
const db = openDatabase(file, { nativeBinding });
// This connection never checkpoints on its own commits (it makes none anyway).
db.pragma('wal_autocheckpoint = 0');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
/** NOOP reads the log's length and copies nothing: below `minPages` the log is left as SQLite would. */
const logPages = () =>
  (db.pragma('wal_checkpoint(NOOP)') as { log: number }[])[0]?.log ?? Number.POSITIVE_INFINITY;
const timer = setInterval(() => {
  if (minPages === 0 || logPages() >= minPages) checkpoint();
}, everyMs);
port.once('message', () => {
  // Asked to stop: one last copy of everything committed; with nothing left to wait for, the
  // thread ends (the caller waits for that).
  clearInterval(timer);
  checkpoint();
  db.close();
});
