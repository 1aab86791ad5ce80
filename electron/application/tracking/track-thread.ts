/**
 * The tracker's thread: reads a clip's model boxes on a connection of its own and tracks them
 * (together a second or more on a long clip), so the process answering the UI never waits on
 * either. Stays up between clips (warm, it tracks faster).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { modelBoxesForTracking } from '../../core/store/model-boxes-read.js';
import {
  fingerprintOf,
  packModelBoxes,
  rankPackedTracks,
} from '../../core/tracking/model-tracks.js';
import { openDatabase, type Db } from '../../node-lib/sqlite.js';

export interface TrackThreadData {
  file: string;
  nativeBinding?: string | undefined;
}

export interface TrackRequest {
  id: number;
  resultId: number;
}

export type TrackReply =
  | { id: number; fingerprint: string; detectionIds: Float64Array; ranks: Int32Array }
  | { id: number; error: string };

const data = workerData as TrackThreadData;
let db: Db | undefined;

parentPort?.on('message', ({ id, resultId }: TrackRequest) => {
  try {
    db ??= openDatabase(data.file, { nativeBinding: data.nativeBinding });
    db.pragma('query_only = ON');
    const rows = modelBoxesForTracking(db, resultId);
    const packed = packModelBoxes(rows);
    const ranks = rankPackedTracks(packed);
    const reply: TrackReply = {
      id,
      fingerprint: fingerprintOf(rows),
      detectionIds: packed.detectionIds,
      ranks,
    };
    parentPort?.postMessage(reply, [
      packed.detectionIds.buffer as ArrayBuffer,
      ranks.buffer as ArrayBuffer,
    ]);
  } catch (err) {
    parentPort?.postMessage({ id, error: (err as Error).message } satisfies TrackReply);
  }
});
