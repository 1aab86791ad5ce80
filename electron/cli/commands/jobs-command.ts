import type { Command } from 'commander';
import { normaliseBaseUrl } from '../../core/credentials/index.js';
import { ServiceError } from '../../core/service/service-errors.js';
import { acquireLibraryLock } from '../../core/store/library-lock.js';
import { readOnlyRefusal } from '../../application/read-only-home.js';
import { openAppContext } from '../../application/app-context.js';
import {
  UsageError,
  connectService,
  EMBEDDED_ACCOUNT,
} from '../../application/service-connection.js';
import { terminalText } from '../terminal-text.js';

export function addJobsCommand(program: Command): void {
  program
    .command('jobs')
    .description('List video jobs still open at the service, or cancel one.')
    .option(
      '--cancel <id>',
      'cancel this job (DELETE /jobs/{id}; a job the service no longer knows counts as cancelled)',
    )
    .option('--service <url>', 'the service the job was sent to (default: the one its run used)')
    .option('--json', 'print JSON')
    .action(async (opts: { cancel?: string; service?: string; json?: boolean }) => {
      const app = openAppContext();
      try {
        const open = app.store.submissions.openVideoJobs();
        if (!opts.cancel) {
          const rows = open.map((s) => ({
            jobId: s.jobId,
            path: app.store.media.byId(s.mediaId)?.path ?? null,
            solution: s.solution,
            status: s.jobStatus,
            progress: s.jobProgress,
          }));
          if (opts.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
          else if (!rows.length) process.stdout.write('No open video jobs.\n');
          else
            for (const r of rows)
              process.stdout.write(
                `${r.jobId}  ${r.status ?? '?'}  ${Math.round((r.progress ?? 0) * 100)} %  ${terminalText(r.path ?? '')}\n`,
              );
          return;
        }
        const submission = open.find((s) => s.jobId === opts.cancel);
        if (!submission)
          throw new UsageError(`No open job ${opts.cancel}; \`labeldesk jobs\` lists them.`);
        // The job lives at the service its run used. Any other service answers 404 for it, which
        // would mark it cancelled here while it runs on (and is charged) where it really is.
        const jobService = app.store.runs.serviceUrlOf(submission.runId) ?? EMBEDDED_ACCOUNT;
        const service = opts.service ?? (jobService === EMBEDDED_ACCOUNT ? undefined : jobService);
        if (normaliseBaseUrl(service ?? EMBEDDED_ACCOUNT) !== normaliseBaseUrl(jobService)) {
          throw new UsageError(
            `Job ${opts.cancel} was sent to ${jobService === EMBEDDED_ACCOUNT ? 'the embedded service' : jobService}, not ${service ?? 'the embedded service'}.`,
          );
        }
        // Cancelling writes to the library (ledger, state), so no run may be writing meanwhile;
        // and the service it starts only reads: no model loads, no stored job is resumed.
        if (app.readOnly) {
          throw new UsageError(readOnlyRefusal(app.home, app.readOnly, 'cancelling a job'));
        }
        const lock = await acquireLibraryLock(app.home, {
          command: `labeldesk jobs --cancel ${opts.cancel}`,
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
            await conn.client.cancelJob(opts.cancel);
            // Frames analysed before the cancel are charged; the service refunded the rest.
            const [job, catalog] = await Promise.all([
              conn.client.job(opts.cancel),
              conn.client.catalog(),
            ]);
            const cost =
              catalog.solutions.find((s) => s.id === submission.solution)?.frameCost.videoFrame ??
              0;
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
          process.stdout.write(
            opts.json
              ? `${JSON.stringify({ jobId: opts.cancel, status: 'cancelled' })}\n`
              : `Cancelled ${opts.cancel}.\n`,
          );
        } finally {
          await conn.close();
          lock.release();
        }
      } finally {
        app.close();
      }
    });
}
