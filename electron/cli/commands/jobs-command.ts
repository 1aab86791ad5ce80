import type { Command } from 'commander';
import { openAppContext } from '../../application/app-context.js';
import { cancelOpenJob, openJobs } from '../../application/video-jobs.js';
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
        if (!opts.cancel) {
          const rows = openJobs(app);
          if (opts.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
          else if (!rows.length) process.stdout.write('No open video jobs.\n');
          else
            for (const r of rows)
              process.stdout.write(
                `${r.jobId}  ${r.status ?? '?'}  ${Math.round((r.progress ?? 0) * 100)} %  ${terminalText(r.path ?? '')}\n`,
              );
          return;
        }
        await cancelOpenJob(app, opts.cancel, opts.service);
        process.stdout.write(
          opts.json
            ? `${JSON.stringify({ jobId: opts.cancel, status: 'cancelled' })}\n`
            : `Cancelled ${opts.cancel}.\n`,
        );
      } finally {
        app.close();
      }
    });
}
