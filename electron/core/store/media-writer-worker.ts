/** The media writer's thread (media-writer.ts): one connection, one transaction per batch asked. */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../node-lib/sqlite.js';
import { useWriteTurns } from '../../node-lib/write-turns.js';
import {
  MEDIA_INSERT_NEW_SQL,
  MEDIA_UPSERT_SQL,
  type MediaUpsertValues,
  writeMediaRows,
} from './media-upsert-sql.js';
import type { MediaUpsert } from './store-types.js';
import type { WriteAnswer, WriteRequest } from './media-writer.js';

const port = parentPort;
if (!port) throw new Error('media-writer-worker must run in a worker thread');
const { file, nativeBinding, checkpointPages, writeTurns, heldTurns } = workerData as {
  file: string;
  nativeBinding?: string;
  checkpointPages: number;
  writeTurns?: SharedArrayBuffer;
  heldTurns?: SharedArrayBuffer;
};
// A scan's rows are writes people wait for: an import's thread gives them their turn.
useWriteTurns(writeTurns, heldTurns);
const db = openDatabase(file, { nativeBinding, writeTurns: 'announced' });
// Same reason as bulkWrites: the log is copied into the database once, after the scan.
db.pragma(`wal_autocheckpoint = ${checkpointPages}`);
const insertNew = db.prepare<MediaUpsertValues>(MEDIA_INSERT_NEW_SQL);
const upsert = db.prepare<MediaUpsertValues, { id: number }>(`${MEDIA_UPSERT_SQL} RETURNING id`);
const writeAll = db.transaction((rows: readonly MediaUpsert[]) =>
  writeMediaRows(rows, insertNew, upsert),
);

port.on('message', (req: WriteRequest) => {
  let answer: WriteAnswer;
  try {
    answer = { id: req.id, ids: Float64Array.from(writeAll(req.rows)) };
  } catch (err) {
    const e = err as { message?: string; code?: unknown };
    answer = {
      id: req.id,
      error: {
        message: e.message ?? String(err),
        code: typeof e.code === 'string' ? e.code : undefined,
      },
    };
  }
  port.postMessage(answer, answer.ids ? [answer.ids.buffer as ArrayBuffer] : []);
});
