import type { Command } from 'commander';
import { openAppContext } from '../../application/app-context.js';
import { liveRunIdsOf } from '../../application/live-runs.js';
import { planPaths } from '../../application/plan-paths.js';
import { withTeamAnswers } from '../../application/team-plan.js';
import { planJson, planText } from '../plan-view.js';
import { connectService } from '../../application/service-connection.js';
import { InterruptedError } from '../hidden-input.js';
import { interruptions } from '../interruptions.js';
import { terminalText } from '../terminal-text.js';

export function addPlanCommand(program: Command): void {
  program
    .command('plan')
    .description(
      'Show what labelling would cost: media found, already labelled (by you or, in a team project, by the team), frames against the key. Spends nothing.',
    )
    .argument('<paths...>', 'folders or files')
    .option('--service <url>', 'a hosted service (default: the embedded one)')
    .option('--solution <id>', 'solution id from the catalog', 'objects')
    .option('--json', 'print JSON')
    .action(
      async (paths: string[], opts: { service?: string; solution: string; json?: boolean }) => {
        const app = openAppContext();
        // Ctrl-C or SIGTERM during a long scan or hashing: what was read is kept for next time.
        const ctrlC = interruptions((line) => process.stderr.write(`${line}\n`));
        // The catalog and the key are all a plan needs: no analysis, and no key is fine too.
        const conn = await connectService(app, {
          ...(opts.service ? { service: opts.service } : {}),
          analysis: false,
          keyOptional: true,
        });
        try {
          const [catalog, key] = await Promise.all([
            conn.client.catalog(),
            conn.hasKey ? conn.client.keyStatus() : undefined,
          ]);
          const { plan: own, selection } = await planPaths(app.store, catalog, {
            paths,
            solution: opts.solution,
            serviceUrl: conn.port.baseUrl,
            liveRunIds: liveRunIdsOf(app.home, app.store),
            signal: ctrlC.stop,
          }).catch((err: unknown) => {
            if (ctrlC.stop.aborted) throw new InterruptedError('Stopped: nothing was planned.');
            throw err;
          });
          const plan = await withTeamAnswers(app.store, own, conn.port.baseUrl);
          for (const i of selection.issues)
            process.stderr.write(`${terminalText(`skipped ${i.path}: ${i.message}`)}\n`);
          process.stdout.write(
            opts.json ? `${JSON.stringify(planJson(plan, key))}\n` : `${planText(plan, key)}\n`,
          );
        } finally {
          ctrlC.dispose();
          await conn.close();
          app.close();
        }
      },
    );
}
