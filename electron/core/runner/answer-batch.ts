/**
 * Finished image answers, committed together: each answer's result, ledger entry and `done` state
 * wait for the end of the event-loop turn, then every answer of that turn lands in ONE transaction
 * (one commit instead of one per image). A task learns its answer is stored only after that
 * commit, so nothing is reported, settled or counted before it is durable. A crash before the
 * commit leaves the files `sending`, which the next plan treats as uncertain (never paid twice).
 */
import type { LedgerEntry, LibraryStore, ResultInput } from '../store/store-types.js';

export interface FinishedAnswer {
  submissionId: number;
  result: ResultInput;
  /** Frames the service charged for this answer. */
  framesSpent: number;
  serviceUrl: string;
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
    private readonly store: LibraryStore,
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

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      this.write(batch.map((p) => p.answer));
    } catch {
      // One bad answer must not fail the others: each is tried alone, as it was before batching,
      // and only the one that fails again sees its error.
      for (const p of batch) {
        try {
          this.write([p.answer]);
        } catch (err) {
          p.reject(err);
          continue;
        }
        p.resolve();
      }
      return;
    }
    for (const p of batch) p.resolve();
  }

  /** Results, charges and states land together: a crash in between keeps none of them. */
  private write(answers: readonly FinishedAnswer[]): void {
    const { store } = this;
    store.transaction(() => {
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
      }
    });
  }
}
