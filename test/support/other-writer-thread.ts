/**
 * A writer that takes no turns, as another process would (sqlite-write-turns.test.ts): begins a
 * write, says so (flag 0), holds it 200 ms, commits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../electron/node-lib/sqlite.js';

const { file, flags: buffer } = workerData as { file: string; flags: SharedArrayBuffer };
const flags = new Int32Array(buffer);
const db = openDatabase(file);
db.exec('BEGIN IMMEDIATE');
db.prepare('INSERT INTO notes (text) VALUES (?)').run('other');
Atomics.store(flags, 0, 1);
Atomics.wait(flags, 1, 0, 200);
db.exec('COMMIT');
db.close();
parentPort?.close();
