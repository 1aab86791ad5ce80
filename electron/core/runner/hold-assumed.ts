/**
 * An answer read while its service's box origin was undecided (x,y assumed the corner) is saved
 * as read and also kept as received, marked, in the same transaction as its result: once a person
 * confirms the origin, reread-assumed-origin.ts reads it again with that convention (issue 23).
 */
import type { AnswerAsReceived } from '../service/adapter/adapter-types.js';
import type { RawAnswersPort } from '../store/store-ports.js';
import type { RawAnswerInput, ResultInput } from '../store/store-types.js';

export function holdAssumed(
  store: RawAnswersPort,
  submissionId: number,
  answer: RawAnswerInput['answer'],
  result: Pick<ResultInput, 'contentHash' | 'solution' | 'serviceUrl'>,
  received: AnswerAsReceived,
  at: number,
): void {
  store.rawAnswers.hold({
    submissionId,
    contentHash: result.contentHash,
    solution: result.solution,
    serviceUrl: result.serviceUrl,
    answer,
    httpStatus: received.httpStatus,
    body: received.body,
    at,
  });
}
