/**
 * Tracking a long clip's boxes on a thread of its own, as the app does: the wall time from
 * handing the packed boxes over to holding the ranks, on a new thread (its start and the
 * tracker's first, unoptimised run included) and on the same thread again (warm: the app keeps
 * it up between clips).
 */
import { Worker } from 'node:worker_threads';
import { packModelBoxes, rankPackedTracks } from '../../electron/core/tracking/model-tracks.js';
import type { TrackInput } from '../../electron/core/tracking/assign-tracks.js';

export interface WorkerTimes {
  coldMs: number;
  warmMs: number;
  /** Whether the thread's ranks are the ones the same tracker gives on this thread. */
  same: boolean;
}

export async function trackOnThread(
  boxes: readonly TrackInput[],
  fps: number,
): Promise<WorkerTimes> {
  const rows = boxes.map((b, i) => ({
    id: i + 1,
    frameIndex: b.frameIndex,
    label: b.label,
    bbox: b.bbox,
    timeMs: Math.round((b.frameIndex * 1000) / fps),
    ...(b.score === undefined ? {} : { score: b.score }),
  }));
  const expected = rankPackedTracks(packModelBoxes(rows));
  const worker = new Worker(new URL('./rank-thread.js', import.meta.url));
  const once = () => {
    const packed = packModelBoxes(rows);
    const t0 = performance.now();
    return new Promise<[number, Int32Array]>((resolve, reject) => {
      worker.once('message', (ranks: Int32Array) => resolve([performance.now() - t0, ranks]));
      worker.once('error', reject);
      worker.postMessage(packed, [
        packed.detectionIds.buffer as ArrayBuffer,
        packed.frames.buffer as ArrayBuffer,
        packed.boxes.buffer as ArrayBuffer,
        packed.labels.buffer as ArrayBuffer,
        packed.scores.buffer as ArrayBuffer,
      ]);
    });
  };
  try {
    const [coldMs, first] = await once();
    const [warmMs, second] = await once();
    const same = (r: Int32Array) =>
      r.length === expected.length && r.every((v, i) => v === expected[i]);
    return { coldMs, warmMs, same: same(first) && same(second) };
  } finally {
    await worker.terminate();
  }
}
