/**
 * Video jobs still open at a service: listed, or one cancelled with its refund booked. The CLI's
 * `jobs` command is a client of these use-cases.
 */
import { normaliseBaseUrl } from '../core/credentials/index.js';
import { ServiceError } from '../core/service/service-errors.js';
import { acquireLibraryLock } from '../core/store/library-lock.js';
import type { AppContext } from './app-context.js';
import { readOnlyRefusal } from './read-only-home.js';
import { UsageError, connectService, EMBEDDED_ACCOUNT } from './service-connection.js';

export interface OpenJob {
  jobId: string | null;
  path: string | null;
  solution: string;
  status: string | null;
  progress: number | null;
}

export function openJobs(app: AppContext): OpenJob[] {
  return app.store.submissions.openVideoJobs().map((s) => ({
    jobId: s.jobId,
    path: app.store.media.byId(s.mediaId)?.path ?? null,
    solution: s.solution,
    status: s.jobStatus,
    progress: s.jobProgress,
  }));
}

/** Cancels an open job at the service its run used (`service` must name that one, if given). */
export async function cancelOpenJob(
  app: AppContext,
  jobId: string,
  serviceOption: string | undefined,
): Promise<void> {
  const submission = app.store.submissions.openVideoJobs().find((s) => s.jobId === jobId);
  if (!submission) throw new UsageError(`No open job ${jobId}; \`labeldesk jobs\` lists them.`);
  // The job lives at the service its run used. Any other service answers 404 for it, which
  // would mark it cancelled here while it runs on (and is charged) where it really is.
  const jobService = app.store.runs.serviceUrlOf(submission.runId) ?? EMBEDDED_ACCOUNT;
  const service = serviceOption ?? (jobService === EMBEDDED_ACCOUNT ? undefined : jobService);
  if (normaliseBaseUrl(service ?? EMBEDDED_ACCOUNT) !== normaliseBaseUrl(jobService)) {
    throw new UsageError(
      `Job ${jobId} was sent to ${jobService === EMBEDDED_ACCOUNT ? 'the embedded service' : jobService}, not ${service ?? 'the embedded service'}.`,
    );
  }
  // Cancelling writes to the library (ledger, state), so no run may be writing meanwhile;
  // and the service it starts only reads: no model loads, no stored job is resumed.
  if (app.readOnly) {
    throw new UsageError(readOnlyRefusal(app.home, app.readOnly, 'cancelling a job'));
  }
  const lock = await acquireLibraryLock(app.home, {
    command: `labeldesk jobs --cancel ${jobId}`,
  });
  const conn = await connectService(app, {
    ...(service ? { service } : {}),
    analysis: false,
  }).catch((err: unknown) => {
    lock.release();
    throw err;
  });
  try {
    let spent = 0;
    try {
      await conn.client.cancelJob(jobId);
      // Frames analysed before the cancel are charged; the service refunded the rest.
      const [job, catalog] = await Promise.all([conn.client.job(jobId), conn.client.catalog()]);
      const cost =
        catalog.solutions.find((s) => s.id === submission.solution)?.frameCost.videoFrame ?? 0;
      spent = (job.result?.frames.length ?? 0) * cost;
    } catch (err) {
      if (!(err instanceof ServiceError && err.status === 404)) throw err;
    }
    // The ledger took the clip's frames when its job was created: book the refund only.
    app.store.ledger.record({
      serviceUrl: conn.port.baseUrl,
      submissionId: submission.id,
      frames: spent - (submission.framesSpent ?? 0),
      at: Date.now(),
    });
    app.store.submissions.setState(submission.id, 'cancelled', { framesSpent: spent });
  } finally {
    await conn.close();
    lock.release();
  }
}
