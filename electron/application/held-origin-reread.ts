/**
 * During a run, answers held while the box origin was undecided are read again as soon as the
 * origin is known (the service's boxes decided it, or a person confirmed it meanwhile), not at
 * the next run's start (issue 23): an answer on its way when an answer decided is committed,
 * held, after that answer's own re-read. Checked after a file's outcome (its answer is then
 * committed), at most every CHECK_EVERY_MS (an indexed count; 500 photos a few seconds apart need
 * not pay 500 of them), and once more before the batch ends.
 */
import { keptDecision } from '../core/runner/origin-decision.js';
import { readingFor } from '../core/runner/service-reading.js';
import type { RunnerStore } from '../core/runner/runner-store.js';
import { messageOf } from '../shared/error-message.js';
import { rereadDecidedAfterRun } from './origin-decided-reread.js';

const CHECK_EVERY_MS = 50;

export class HeldOriginReread {
  private last: Promise<void> = Promise.resolve();
  private queued = false;
  private checkedAt = -Infinity;
  /** A file's outcome came since the last check. */
  private unchecked = false;

  constructor(
    private readonly store: RunnerStore,
    private readonly serviceUrl: string,
    private readonly say: (line: string) => void,
  ) {}

  /** After a file's outcome: when answers are held and the origin is known, read them again. */
  afterItem(): void {
    const now = performance.now();
    this.unchecked = now - this.checkedAt < CHECK_EVERY_MS;
    if (this.unchecked) return;
    this.checkedAt = now;
    this.check();
  }

  private check(): void {
    if (this.queued || this.store.rawAnswers.countOriginPending() === 0) return;
    const known =
      readingFor(this.store, this.serviceUrl).originConfirmed === true ||
      keptDecision(this.store, this.serviceUrl) !== null;
    if (!known) return;
    this.queued = true;
    this.last = this.last.then(async () => {
      this.queued = false;
      try {
        const line = await rereadDecidedAfterRun(this.store);
        if (line) this.say(line);
      } catch (err) {
        // The run's answers are saved; the held ones stay held and are read at the next start.
        this.say(`The held answers could not be read again yet: ${messageOf(err)}`);
      }
    });
  }

  /** Resolves once every re-read asked for is done (a run ends after them). */
  done(): Promise<void> {
    if (this.unchecked) {
      this.unchecked = false;
      this.check();
    }
    return this.last;
  }
}
