/**
 * When the background start-up work (the folders' rescan and watch) begins. It competes with the
 * first paint for the main thread (the rescan reads 100k stored rows in pages), so it waits
 * `delayMs` after start, as before, and if the UI's first grid page was asked for by then, until
 * that page has been answered and `settleMs` more (its paint and thumbnails come first). Without a
 * UI asking, it is the plain delay; never later than `latestMs`.
 */
export interface StartupGateTimes {
  delayMs: number;
  settleMs: number;
  latestMs: number;
  /**
   * How long a UI has to ask for its first page before the work begins without it (default
   * `delayMs`): with a shorter `delayMs`, an answered page lets the work begin before this.
   */
  askByMs?: number;
}

export class StartupGate {
  private readonly startedAt: number;
  private asked = false;
  private answeredAt: number | null = null;
  private done = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly times: StartupGateTimes,
    private readonly begin: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
    this.after(Math.max(times.delayMs, times.askByMs ?? 0), () => this.check());
    this.after(times.latestMs, () => this.openNow());
  }

  /** A grid page was asked for; `pageAnswered` follows when it has been answered (or failed). */
  pageAsked(): void {
    if (!this.done) this.asked = true;
  }

  pageAnswered(): void {
    if (this.done || this.answeredAt !== null) return;
    this.answeredAt = this.now();
    this.after(this.times.settleMs, () => this.check());
  }

  /**
   * Begins now if it has not yet: before a folder is added, so the rescan lists only the folders
   * there were (the new one is scanned by its adding, not twice).
   */
  openNow(): void {
    if (this.done) return;
    this.cancel();
    this.begin();
  }

  /** Nothing starts any more (the app is closing). */
  cancel(): void {
    this.done = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private check(): void {
    const now = this.now();
    if (now - this.startedAt < this.times.delayMs) return;
    if (this.asked && (this.answeredAt === null || now - this.answeredAt < this.times.settleMs)) {
      return;
    }
    if (!this.asked && now - this.startedAt < (this.times.askByMs ?? this.times.delayMs)) return;
    this.openNow();
  }

  private after(ms: number, run: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      run();
    }, ms);
    // Waiting to start background work never keeps the process alive.
    t.unref?.();
    this.timers.add(t);
  }
}
