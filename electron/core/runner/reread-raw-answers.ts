/**
 * Reads the kept raw answers again, with no network, once LabelDesk reads better (a new version at
 * library open, a changed per-service setting). An answer now understood lands exactly as if it
 * had been read when it arrived: its result (or its job id) is saved and the file's issue cleared.
 */
import type { RunnerStore } from './runner-store.js';
import {
  readImageAnswer,
  readJobAnswer,
  readSubmissionAnswer,
  type AnswerContext,
} from '../service/service-adapter.js';
import { AnswerNotUnderstoodError } from '../service/service-errors.js';
import { latestStoredCatalog } from '../service/adapter/stored-catalog.js';
import type { RawAnswerRow } from '../store/store-types.js';
import { readingOf } from './service-reading.js';
import { toDetectionInputs } from './to-detections.js';

export interface RereadSummary {
  /** Answers now understood (their files are labelled, or their clip's job is known again). */
  read: number;
  /** Still kept unread. */
  kept: number;
}

export function rereadRawAnswers(store: RunnerStore, now: () => number = Date.now): RereadSummary {
  let read = 0;
  for (const row of store.rawAnswers.unread()) {
    try {
      if (rereadOne(store, row, now())) read++;
    } catch (err) {
      if (!(err instanceof AnswerNotUnderstoodError)) throw err;
    }
  }
  return { read, kept: store.rawAnswers.countUnread() };
}

function contextOf(store: RunnerStore, row: RawAnswerRow): AnswerContext {
  const catalog = latestStoredCatalog(store.catalog, row.serviceUrl);
  const solution = catalog?.solutions.find((s) => s.id === row.solution);
  const submission = store.submissions.byId(row.submissionId);
  const media = submission ? store.media.byId(submission.mediaId) : undefined;
  return {
    reading: readingOf(store, row.serviceUrl),
    ...(solution ? { solution } : {}),
    clipDurationMs: media?.durationMs ?? null,
  };
}

/** Throws AnswerNotUnderstoodError when it still cannot be read. */
function rereadOne(store: RunnerStore, row: RawAnswerRow, at: number): boolean {
  const submission = store.submissions.byId(row.submissionId);
  if (submission?.state !== 'uncertain') {
    // A person had the file sent again meanwhile: its newer answer stands.
    store.rawAnswers.markRead(row.id, at);
    return false;
  }
  const ctx = contextOf(store, row);
  const media = submission ? store.media.byId(submission.mediaId) : undefined;
  const base = {
    contentHash: row.contentHash,
    solution: row.solution,
    serviceUrl: row.serviceUrl,
  };
  if (row.answer === 'videoSubmission') {
    const submitted = readSubmissionAnswer(row.httpStatus, row.body);
    store.transaction(() => {
      // The clip's job is known again: the next run polls it instead of sending the clip.
      store.submissions.setJob(row.submissionId, submitted.jobId, submitted.serviceStatus ?? '');
      if (submission?.state === 'uncertain')
        store.submissions.setState(row.submissionId, 'sending');
      store.rawAnswers.markRead(row.id, at);
    });
    return true;
  }
  if (row.answer === 'imageResult') {
    const answer = readImageAnswer(row.httpStatus, row.body, ctx);
    store.transaction(() => {
      // The charge was booked at the planned cost; the answer now says what it really was.
      const spent = answer.credits?.spent ?? null;
      const booked = submission.framesSpent ?? 0;
      if (spent !== null && spent !== booked) {
        store.ledger.record({
          serviceUrl: row.serviceUrl,
          submissionId: row.submissionId,
          frames: spent - booked,
          at,
        });
        store.submissions.setState(row.submissionId, 'uncertain', { framesSpent: spent });
      }
      store.results.save({
        ...base,
        analysedWidth: answer.image.analysedWidth ?? media?.width ?? 0,
        analysedHeight: answer.image.analysedHeight ?? media?.height ?? 0,
        model: answer.stats.model,
        detections: toDetectionInputs(answer.detections, 0, null),
      });
      settle(store, row, { state: 'done' }, at);
    });
    return true;
  }
  const job = readJobAnswer(row.httpStatus, row.body, ctx);
  // Still running by this reading: nothing to settle yet (it stays kept).
  if (job.status === 'queued' || job.status === 'running') return false;
  store.transaction(() => {
    const done = job.status === 'succeeded' && job.result !== null;
    if (done && job.result) {
      store.results.save({
        ...base,
        analysedWidth: job.result.analysedWidth ?? media?.width ?? 0,
        analysedHeight: job.result.analysedHeight ?? media?.height ?? 0,
        model: null,
        detections: job.result.frames.flatMap((f) =>
          toDetectionInputs(f.detections, f.index, f.timeMs),
        ),
      });
    }
    settle(store, row, done ? { state: 'done' } : { state: 'failed', error: job.error }, at);
  });
  return true;
}

function settle(
  store: RunnerStore,
  row: RawAnswerRow,
  to: { state: 'done' } | { state: 'failed'; error: { code: string; message: string } | null },
  at: number,
): void {
  store.submissions.setState(row.submissionId, to.state, {
    errorCode: to.state === 'failed' ? (to.error?.code ?? 'job_failed') : null,
    errorMessage: to.state === 'failed' ? (to.error?.message ?? null) : null,
  });
  store.rawAnswers.markRead(row.id, at);
}
