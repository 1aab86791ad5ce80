/**
 * A paid answer LabelDesk cannot read is kept as received with its file, the charge is counted,
 * and the file becomes `uncertain` with the issue "answer not understood": it is not sent (and
 * paid) again until a person asks (`--retry-uncertain`, Retry in the app), and the kept answer is
 * read again, with no network, when the reading improves (reread-raw-answers.ts).
 */
import type { AnswerNotUnderstoodError } from '../service/service-errors.js';
import { DiskFullError } from './disk-full.js';
import type { RawAnswerInput } from '../store/store-types.js';
import type { PlannedItem, TaskContext, TaskOutcome } from './task-types.js';

export const ANSWER_NOT_UNDERSTOOD = 'answer_not_understood';

export function notUnderstoodMessage(problems: readonly string[]): string {
  return (
    `Answer not understood: the service answered (and charged) but LabelDesk could not read it ` +
    `(${problems.slice(0, 3).join('; ')}). The answer is kept and read again when LabelDesk ` +
    `reads it better; the file is sent again only if you ask (--retry-uncertain, or Retry).`
  );
}

/** Keeps the answer, its charge (`charged`, 0 when already counted) and the file's issue in one transaction. */
export async function keepRawAnswer(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
  err: AnswerNotUnderstoodError,
  charged: number,
): Promise<Extract<TaskOutcome, { kind: 'uncertain' }>> {
  const { store, service, solution } = ctx;
  const answer = err.answer as RawAnswerInput['answer'];
  const message = notUnderstoodMessage(err.problems);
  const prior = store.submissions.byId(submissionId)?.framesSpent ?? 0;
  const outcome = {
    kind: 'uncertain' as const,
    code: ANSWER_NOT_UNDERSTOOD,
    message,
    framesSpent: charged,
  };
  try {
    await ctx.disk.retry(
      () =>
        store.transaction(() => {
          store.rawAnswers.keep({
            submissionId,
            contentHash: item.media.contentHash,
            solution: solution.id,
            serviceUrl: service.baseUrl,
            answer,
            httpStatus: err.status,
            body: err.raw,
            problems: [...err.problems],
            at: ctx.now(),
          });
          if (charged !== 0) {
            store.ledger.record({
              serviceUrl: service.baseUrl,
              submissionId,
              frames: charged,
              at: ctx.now(),
            });
          }
          store.submissions.setState(submissionId, 'uncertain', {
            framesSpent: prior + charged,
            errorCode: ANSWER_NOT_UNDERSTOOD,
            errorMessage: message,
          });
        }),
      ctx.sleep,
      ctx.signal,
    );
  } catch (err) {
    // Aborted with the disk full: the row stays `sending`, which the next plan treats as
    // uncertain too, so the file is still not sent again without a person asking.
    if (!(err instanceof DiskFullError)) throw err;
  }
  return outcome;
}
