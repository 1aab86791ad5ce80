import type { Command } from 'commander';
import { ServiceError } from '../../core/service/service-errors.js';
import { openAppContext } from '../app-context.js';
import { CliUsageError, connectService } from '../service-connection.js';

export function addJobsCommand(program: Command): void {
  program
    .command('jobs')
    .description('List video jobs still open at the service, or cancel one.')
    .option(
      '--cancel <id>',
      'cancel this job (DELETE /jobs/{id}; a job the service no longer knows counts as cancelled)',
    )
    .option('--service <url>', 'a hosted service (default: the embedded one)')
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
                `${r.jobId}  ${r.status ?? '?'}  ${Math.round((r.progress ?? 0) * 100)} %  ${r.path ?? ''}\n`,
              );
          return;
        }
        const submission = open.find((s) => s.jobId === opts.cancel);
        if (!submission)
          throw new CliUsageError(`No open job ${opts.cancel}; \`labeldesk jobs\` lists them.`);
        const conn = await connectService(app, {
          ...(opts.service ? { service: opts.service } : {}),
          engine: 'null',
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
          app.store.ledger.record({
            serviceUrl: conn.port.baseUrl,
            submissionId: submission.id,
            frames: spent,
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
        }
      } finally {
        app.close();
      }
    });
}
