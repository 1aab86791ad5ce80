/**
 * A promise to wait on that a wake resolves; the next wait after a wake gets a fresh one.
 * `wakeAtTurnEnd` wakes once after this event-loop turn's I/O (setImmediate), however many times
 * it is called in the turn: the scheduler then starts the next files of all the answers that came
 * in this turn at once, and their rows share one commit with those answers (answer-batch.ts, whose
 * own flush is queued after this wake-up, finds them committed).
 */
export class Wakeup {
  private pending: Promise<void> | undefined;
  private resolve: () => void = () => undefined;
  private scheduled = false;

  next(): Promise<void> {
    this.pending ??= new Promise<void>((resolve) => (this.resolve = resolve));
    return this.pending;
  }

  wake(): void {
    this.pending = undefined;
    this.resolve();
  }

  wakeAtTurnEnd(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.wake();
    });
  }
}
