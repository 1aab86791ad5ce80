import type { Command } from 'commander';
import { ServiceClient } from '../../core/service/service-client.js';
import type { KeyStatus } from '../../core/service/service-adapter.js';
import { openAppContext, type AppContext } from '../app-context.js';
import { connectService } from '../service-connection.js';
import { terminalText } from '../terminal-text.js';

/**
 * A hosted service without a stored key still answers the public endpoints: status reports its
 * health and version, and says why the key part is missing (no key, or no keychain).
 */
async function withoutKey(app: AppContext, service: string): Promise<string | undefined> {
  try {
    const resolved = await app.credentials.resolveKey(service);
    return resolved ? undefined : `no key stored (run \`labeldesk login --service ${service}\`)`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

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
      const noKey = opts.service ? await withoutKey(app, opts.service) : undefined;
      const conn =
        opts.service && noKey
          ? { client: new ServiceClient({ baseUrl: opts.service }), close: async () => undefined }
          : await connectService(app, {
              ...(opts.service ? { service: opts.service } : {}),
              engine: 'null',
            });
      try {
        const [catalog, health, key] = await Promise.all([
          conn.client.catalog(),
          conn.client.health(),
          noKey ? Promise.resolve(undefined) : conn.client.keyStatus(),
        ]);
        const status = {
          service: opts.service ?? 'embedded',
          version: catalog.version,
          health: health.status,
          ai: health.ai,
          ...keyFields(key, noKey),
        };
        if (opts.json) process.stdout.write(`${JSON.stringify(status)}\n`);
        else {
          process.stdout.write(
            [
              `Service: ${status.service} (version ${status.version}), ${status.health}, models ${String(status.ai)}`,
              key
                ? `Key: ${key.audience}, ${key.remaining} frames left, ${key.hourRemaining} this hour${key.expiresAt ? `, expires ${key.expiresAt}` : ''}`
                : `Key: ${noKey}`,
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

function keyFields(key: KeyStatus | undefined, noKey: string | undefined) {
  if (!key) return { audience: null, remaining: null, hourRemaining: null, expiresAt: null, noKey };
  return {
    audience: key.audience,
    remaining: key.remaining,
    hourRemaining: key.hourRemaining,
    expiresAt: key.expiresAt,
  };
}
