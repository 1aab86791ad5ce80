/**
 * Finished image answers, committed together: each answer's result, ledger entry and `done` state
 * wait for the end of the event-loop turn, then every answer of that turn lands in ONE transaction
 * (one commit instead of one per image). A task learns its answer is stored only after that
 * commit, so nothing is reported, settled or counted before it is durable. A crash before the
 * commit leaves the files `sending`, which the next plan treats as uncertain (never paid twice).
 * The scheduler's own write of the next files it sends (their `sending` rows) can join the same
 * commit (`commitWith`): one commit per file instead of two, and no wait for the turn's end.
 */
import type { RunnerStore } from './runner-store.js';
import type { AnswerAsReceived } from '../service/adapter/adapter-types.js';
import type { LedgerEntry, ResultInput } from '../store/store-types.js';
import { holdAssumed } from './hold-assumed.js';

export interface FinishedAnswer {
  submissionId: number;
  result: ResultInput;
  /** Frames the service charged for this answer. */
  framesSpent: number;
  serviceUrl: string;
  /** The answer as received when its boxes' origin was assumed: held to be read again (issue 23). */
  assumedOrigin?: AnswerAsReceived;
}

interface Pending {
  answer: FinishedAnswer;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class AnswerBatch {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly store: RunnerStore,
    private readonly now: () => number,
  ) {}

  /** Resolves once the answer is committed; rejects with the store's error if it could not be. */
  commit(answer: FinishedAnswer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ answer, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /**
   * Runs `write` in one transaction with the answers waiting for their commit, and settles those.
   * If that fails, the answers are committed as `flush` does, then `write` alone (its error thrown).
   */
  commitWith<T>(write: () => T): T {
    const batch = this.take();
    if (batch.length === 0) return this.store.transaction(write);
    let value: T;
    try {
      value = this.store.transaction(() => {
        this.write(batch.map((p) => p.answer));
        return write();
      });
    } catch {
      this.writeEachAlone(batch);
      return this.store.transaction(write);
    }
    for (const p of batch) p.resolve();
    return value;
  }

  private take(): Pending[] {
    const batch = this.pending;
    this.pending = [];
    return batch;
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.take();
    if (batch.length === 0) return;
    try {
      this.store.transaction(() => this.write(batch.map((p) => p.answer)));
    } catch {
      this.writeEachAlone(batch);
      return;
    }
    for (const p of batch) p.resolve();
  }

  /** One bad answer must not fail the others: each is tried alone, as before batching. */
  private writeEachAlone(batch: readonly Pending[]): void {
    for (const p of batch) {
      try {
        this.store.transaction(() => this.write([p.answer]));
      } catch (err) {
        p.reject(err);
        continue;
      }
      p.resolve();
    }
  }

  /** Results, charges and states land together (the caller's transaction): a crash keeps none. */
  private write(answers: readonly FinishedAnswer[]): void {
    const { store } = this;
    store.results.saveMany(answers.map((a) => a.result));
    const at = this.now();
    for (const a of answers) {
      const entry: LedgerEntry = {
        serviceUrl: a.serviceUrl,
        submissionId: a.submissionId,
        frames: a.framesSpent,
        at,
      };
      store.ledger.record(entry);
      store.submissions.setState(a.submissionId, 'done', { framesSpent: a.framesSpent });
      if (a.assumedOrigin)
        holdAssumed(store, a.submissionId, 'imageResult', a.result, a.assumedOrigin, at);
    }
  }
}
