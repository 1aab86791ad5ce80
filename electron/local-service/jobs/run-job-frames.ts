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
  job: Pick<JobRow, 'id' | 'solution' | 'frames_done' | 'frames_expected'>;
  frames: AsyncIterable<Frame>;
  engine: Pick<DetectionEngine, 'detect'>;
  repo: Pick<JobsRepo, 'appendFrames'>;
  signal: AbortSignal;
  /** Frames on the engine at once (its worker count). */
  inFlight: number;
}

interface Analysed {
  idx: number;
  timeMs: number;
  detections: string;
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
 *
 * Decoding overlaps inference: the next frame is read from ffmpeg while the engine works, and a
 * worker that finishes early gets a new frame at once even when an older frame is still running
 * (results wait in order, at most `2 × inFlight` of them, so memory stays bounded).
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
  let batch: Analysed[] = [];
  let lastFlush = performance.now();
  /** In frame order; `result` is set when the engine answers. */
  const pending: { work: Promise<Analysed>; result?: Analysed }[] = [];
  let onEngine = 0;
  const flush = () => {
    if (!batch.length) return;
    repo.appendFrames(job.id, batch, done);
    batch = [];
    lastFlush = performance.now();
  };
  /** Moves the answered frames at the head, in order, to the batch. */
  const drainInOrder = () => {
    while (pending[0]?.result) {
      batch.push((pending.shift() as { result: Analysed }).result);
      done += 1;
    }
    if (performance.now() - lastFlush > FLUSH_EVERY_MS) flush();
  };
  /** Waits until a frame answers (any of them: the oldest for a full window); throws its error. */
  const settleOne = async () => {
    // Drained first, so the head is unanswered: the race below always has something to wait for.
    drainInOrder();
    const waitFor = pending.length >= 2 * inFlight ? pending.slice(0, 1) : pending;
    const unanswered = waitFor.filter((p) => !p.result).map((p) => p.work);
    if (unanswered.length) await abortable(Promise.race(unanswered), signal);
    drainInOrder();
  };
  const iterator = frames[Symbol.asyncIterator]();
  try {
    let next = iterator.next();
    for (;;) {
      const item = await next;
      if (item.done || item.value.index >= job.frames_expected) break;
      const frame = item.value;
      const entry: (typeof pending)[number] = {
        work: engine.detect(job.solution, frame.rgb, signal).then((r) => {
          onEngine -= 1;
          entry.result = {
            idx: frame.index,
            timeMs: Math.round(frame.timeMs),
            detections: JSON.stringify(
              detectionsView(r.detections, frame.rgb.width, frame.rgb.height),
            ),
          };
          return entry.result;
        }),
      };
      onEngine += 1;
      // Handled where it is awaited; this keeps a rejection after a cancel from counting as unhandled.
      entry.work.catch(() => undefined);
      pending.push(entry);
      // Read ahead: ffmpeg decodes the next frame while the engine works on this one.
      next = iterator.next();
      next.catch(() => undefined);
      while (onEngine >= inFlight || pending.length >= 2 * inFlight) await settleOne();
    }
    while (pending.length) await settleOne();
  } finally {
    // Whatever happens, frames already analysed are kept (and charged).
    drainInOrder();
    flush();
    // A frame read ahead and never analysed: stop ffmpeg (the generator reaps it).
    await iterator.return?.();
  }
}
