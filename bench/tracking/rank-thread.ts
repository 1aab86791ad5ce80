/**
 * The tracking bench's tracker thread: tracks packed boxes as the app's tracker thread does
 * (electron/application/tracking/track-thread.ts, without its database read) and answers the
 * ranks, so the bench times the tracker where the app runs it.
 */
import { parentPort } from 'node:worker_threads';
import { rankPackedTracks, type PackedBoxes } from '../../electron/core/tracking/model-tracks.js';

parentPort?.on('message', (packed: PackedBoxes) => {
  const ranks = rankPackedTracks(packed);
  parentPort?.postMessage(ranks, [ranks.buffer as ArrayBuffer]);
});
