/**
 * What the runner may still spend: the key's remaining and hourly frames (as last reported by the
 * service), the user's budgets for the run and the hour, minus what requests in flight have reserved.
 * A request is only sent once its frames are reserved here, so full concurrency cannot overspend.
 */
export type BudgetRefusal = 'key' | 'hour' | 'run-budget' | 'hour-budget';

export interface BudgetLimits {
  remaining: number;
  hourRemaining: number;
  runBudget: number | null;
  hourBudget: number | null;
  /** Frames already spent this clock hour by earlier runs (from the ledger), for the hour budget. */
  spentThisHour: number;
  /** When these figures were taken (ms epoch): the clock hour `spentThisHour` belongs to. */
  at?: number;
}

const HOUR_MS = 3_600_000;
const hourOf = (at: number) => Math.floor(at / HOUR_MS);

export class CreditBudget {
  private reserved = 0;
  private spentInRun = 0;
  private spentInHour: number;
  private hour: number;

  constructor(private limits: BudgetLimits) {
    this.spentInHour = limits.spentThisHour;
    this.hour = hourOf(limits.at ?? 0);
  }

  /**
   * The hour budget is per clock hour: it starts afresh only when a new hour has begun, never
   * because the run paused (a Retry-After of one second is not a new hour).
   */
  rollHour(at: number): void {
    const hour = hourOf(at);
    if (hour <= this.hour) return;
    this.hour = hour;
    this.spentInHour = 0;
  }

  /** Reserves `frames` or says which limit refuses them. */
  tryReserve(frames: number): BudgetRefusal | undefined {
    const refusal = this.refusalFor(frames);
    if (!refusal) this.reserved += frames;
    return refusal;
  }

  refusalFor(frames: number): BudgetRefusal | undefined {
    const { remaining, hourRemaining, runBudget, hourBudget } = this.limits;
    if (frames > remaining - this.reserved) return 'key';
    if (runBudget !== null && frames > runBudget - this.spentInRun - this.reserved)
      return 'run-budget';
    if (hourBudget !== null && frames > hourBudget - this.spentInHour - this.reserved)
      return 'hour-budget';
    if (frames > hourRemaining - this.reserved) return 'hour';
    return undefined;
  }

  /** Settles a reservation; `credits` (from the answer) replaces our view of the key when given. */
  settle(
    reserved: number,
    spent: number,
    credits?: { remaining: number; hourRemaining: number },
  ): void {
    this.reserved -= reserved;
    this.spentInRun += spent;
    this.spentInHour += spent;
    const local = {
      remaining: this.limits.remaining - spent,
      hourRemaining: this.limits.hourRemaining - spent,
    };
    // The service's figures also hold back frames for our other calls still in flight, so they are
    // exact only when nothing else is in flight; otherwise count locally and take the lower figure.
    const next =
      credits && this.reserved === 0
        ? credits
        : credits
          ? {
              remaining: Math.min(local.remaining, credits.remaining + this.reserved),
              hourRemaining: Math.min(local.hourRemaining, credits.hourRemaining + this.reserved),
            }
          : local;
    this.limits = { ...this.limits, ...next };
  }

  /** After a pause (the hour, a Retry-After), the service's fresh figures, taken at `at`. */
  refresh(remaining: number, hourRemaining: number, at: number): void {
    this.limits = { ...this.limits, remaining, hourRemaining };
    this.rollHour(at);
  }

  /** A later correction of what was spent (a clip's unanalysed frames refunded: negative). */
  adjust(frames: number): void {
    this.settle(0, frames);
  }

  get spent(): number {
    return this.spentInRun;
  }
}
