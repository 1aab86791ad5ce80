import type { Command } from 'commander';
import { openAppContext } from '../app-context.js';
import { connectService } from '../service-connection.js';

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
      const conn = await connectService(app, {
        ...(opts.service ? { service: opts.service } : {}),
        engine: 'null',
      });
      try {
        const [catalog, health, key] = await Promise.all([
          conn.client.catalog(),
          conn.client.health(),
          conn.client.keyStatus(),
        ]);
        const status = {
          service: opts.service ?? 'embedded',
          version: catalog.version,
          health: health.status,
          ai: health.ai,
          audience: key.audience,
          remaining: key.remaining,
          hourRemaining: key.hourRemaining,
          expiresAt: key.expiresAt,
        };
        if (opts.json) process.stdout.write(`${JSON.stringify(status)}\n`);
        else {
          process.stdout.write(
            [
              `Service: ${status.service} (version ${status.version}), ${status.health}, models ${String(status.ai)}`,
              `Key: ${status.audience}, ${status.remaining} frames left, ${status.hourRemaining} this hour${status.expiresAt ? `, expires ${status.expiresAt}` : ''}`,
            ].join('\n') + '\n',
          );
        }
      } finally {
        await conn.close();
        app.close();
      }
    });
}
