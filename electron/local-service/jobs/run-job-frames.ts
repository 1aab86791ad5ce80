import type { DetectionEngine } from '../engine/engine-types.js';
import type { RgbImage } from '../engine/engine-types.js';
import { detectionsView } from '../routes/detections-view.js';
import type { JobRow, JobsRepo } from '../store/jobs-repo.js';

interface Frame {
  index: number;
  timeMs: number;
  rgb: RgbImage;
}

interface Options {
  job: JobRow;
  frames: AsyncIterable<Frame>;
  engine: DetectionEngine;
  repo: JobsRepo;
  signal: AbortSignal;
  inFlight: number;
}

const FLUSH_EVERY_MS = 250;

/** Rejects as soon as the signal fires, whatever the engine is still doing. */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Analyses the frames of one job, keeping up to `inFlight` on the engine, storing results in order
 * in small batches. Never analyses past the frames reserved for the job.
 */
export async function runJobFrames({
  job,
  frames,
  engine,
  repo,
  signal,
  inFlight,
}: Options): Promise<void> {
  let done = job.frames_done;
  let batch: { idx: number; timeMs: number; detections: string }[] = [];
  let lastFlush = performance.now();
  const pending: Promise<{ idx: number; timeMs: number; detections: string }>[] = [];
  const flush = () => {
    if (!batch.length) return;
    repo.appendFrames(job.id, batch, done);
    batch = [];
    lastFlush = performance.now();
  };
  const settleOldest = async () => {
    const frame = await abortable(pending.shift() as Promise<(typeof batch)[number]>, signal);
    batch.push(frame);
    done += 1;
    if (performance.now() - lastFlush > FLUSH_EVERY_MS) flush();
  };
  try {
    for await (const frame of frames) {
      if (frame.index >= job.frames_expected) break;
      const analysed = engine.detect(job.solution, frame.rgb, signal).then((r) => ({
        idx: frame.index,
        timeMs: Math.round(frame.timeMs),
        detections: JSON.stringify(detectionsView(r.detections, frame.rgb.width, frame.rgb.height)),
      }));
      // Handled where it is awaited; this keeps a rejection after a cancel from counting as unhandled.
      analysed.catch(() => undefined);
      pending.push(analysed);
      if (pending.length >= inFlight) await settleOldest();
    }
    while (pending.length) await settleOldest();
  } finally {
    // Whatever happens, frames already analysed are kept (and charged).
    flush();
  }
}
