/**
 * Items planned while a run is already sending (the rest of a folder still being hashed and
 * probed): pulled in the background and handed to the scheduler batch by batch, so the first
 * uploads do not wait for the last file to be read. Credits are still reserved per item when it
 * is sent, so a plan that grows never lets the run spend more than the key or a budget allows.
 */
import type { PlannedItem } from './task-types.js';

export class PlanFeed {
  /** The source has ended (or failed): no item will arrive any more. */
  done: boolean;
  /** Why the source stopped early, if it did. */
  error: unknown;
  private readonly pulled: Promise<void>;
  private arrival: Promise<void>;
  private wake: () => void = () => undefined;
  private stopped = false;

  constructor(
    source: AsyncIterable<readonly PlannedItem[]> | undefined,
    onItems: (items: readonly PlannedItem[]) => void,
  ) {
    this.done = source === undefined;
    this.arrival = this.nextArrival();
    this.pulled = source ? this.pull(source, onItems) : Promise.resolve();
  }

  /** Settles at the next batch, or when the source ends. */
  next(): Promise<void> {
    return this.arrival;
  }

  /** Takes no more batches: the source is closed after the one it is making now. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.pulled;
  }

  private nextArrival(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  private async pull(
    source: AsyncIterable<readonly PlannedItem[]>,
    onItems: (items: readonly PlannedItem[]) => void,
  ): Promise<void> {
    try {
      for await (const items of source) {
        if (this.stopped) break;
        if (items.length === 0) continue;
        onItems(items);
        const wake = this.wake;
        this.arrival = this.nextArrival();
        wake();
      }
    } catch (err) {
      this.error = err;
    } finally {
      this.done = true;
      this.wake();
    }
  }
}
