import type { Command } from 'commander';
import { openAppContext } from '../../application/app-context.js';
import { connectService } from '../../application/service-connection.js';
import { terminalText } from '../terminal-text.js';

export function addStatusCommand(program: Command): void {
  program
    .command('status')
    .description(
      'Service version and health, and what is left on the key (GET /key spends nothing).',
    )
    .option('--service <url>', 'a hosted service (default: the embedded one)')
    .option('--json', 'print JSON')
    .action(async (opts: { service?: string; json?: boolean }) => {
      const app = openAppContext();
      // Status only reads: the embedded service loads no model and resumes no job for it, and a
      // hosted service's version and health are shown even without a key.
      const conn = await connectService(app, {
        ...(opts.service ? { service: opts.service } : {}),
        analysis: false,
        keyOptional: true,
      });
      try {
        const [catalog, health, key] = await Promise.all([
          conn.client.catalog(),
          conn.client.health(),
          conn.hasKey ? conn.client.keyStatus() : undefined,
        ]);
        const status = {
          service: opts.service ?? 'embedded',
          version: catalog.version,
          health: health.status,
          // The embedded service's models load only for a run; `off` says so.
          ai: health.ai,
          audience: key?.audience ?? null,
          remaining: key?.remaining ?? null,
          hourRemaining: key?.hourRemaining ?? null,
          expiresAt: key?.expiresAt ?? null,
          /** What the catalog did not publish in a form LabelDesk reads, and what is used. */
          notPublished: catalog.limits.notPublished,
          understood: catalog.understanding.map((n) => `${n.field}: ${n.text}`),
          keptUnread: app.store.rawAnswers.countUnread(),
        };
        if (opts.json) process.stdout.write(`${JSON.stringify(status)}\n`);
        else {
          process.stdout.write(
            [
              `Service: ${status.service} (version ${status.version}), ${status.health}, ${status.ai === 'off' ? 'models load when a run starts' : `models ${String(status.ai)}`}`,
              key
                ? `Key: ${key.audience}, ${key.remaining} frames left, ${key.hourRemaining} this hour${key.expiresAt ? `, expires ${key.expiresAt}` : ''}`
                : 'Key: none stored for this service (`labeldesk login --service URL`).',
              ...status.notPublished.map(
                (n) => `Limit ${n.name}: not published by the service: using ${n.using}`,
              ),
              ...(status.keptUnread
                ? [
                    `${status.keptUnread} charged answer(s) kept but not understood (read again at the next run).`,
                  ]
                : []),
            ]
              .map(terminalText)
              .join('\n') + '\n',
          );
        }
      } finally {
        await conn.close();
        app.close();
      }
    });
}
