/**
 * What the app's main process feels while a sync pulls: its event loop's delay and a review's
 * read of an item (what opening an image in the review costs), sampled every READ_EVERY_MS,
 * first with nothing else running here (the bare figure, the same reads on the same library) and
 * then while `work` (a pull) runs.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LibraryStore } from '../electron/core/store/store-types.js';
import { reviewOf, TEAM_SOLUTION } from './team-libraries.js';

const READ_EVERY_MS = 25;

export interface LoopFigures {
  /** The loop's longest delay, ms. */
  stallMs: number;
  p99Ms: number;
  /** Each review read's time, ms. */
  reads: number[];
}

/** Samples the loop and review reads of images [0, images) until `work` settles. */
export async function sampleMainLoop<T>(
  store: LibraryStore,
  images: number,
  work: () => Promise<T>,
): Promise<{ result: T; loop: LoopFigures }> {
  const { review, mediaId } = reviewOf(store);
  const reads: number[] = [];
  let i = 0;
  let stop = false;
  const reader = (async () => {
    while (!stop) {
      const t = performance.now();
      review.item(mediaId(i++ % images), TEAM_SOLUTION);
      reads.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, READ_EVERY_MS));
    }
  })();
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    const result = await work();
    return { result, loop: { stallMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, reads } };
  } finally {
    h.disable();
    stop = true;
    await reader;
  }
}

/** The bare figure: the same sampling for `ms` with nothing else running here. */
export async function idleMainLoop(
  store: LibraryStore,
  images: number,
  ms: number,
): Promise<LoopFigures> {
  const idle = () => new Promise<void>((r) => setTimeout(r, ms));
  return (await sampleMainLoop(store, images, idle)).loop;
}
