import type { Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { ServiceClient } from '../../core/service/service-client.js';
import { openAppContext } from '../app-context.js';
import { CliUsageError, EMBEDDED_ACCOUNT } from '../service-connection.js';

/** Reads a key from standard input: typed (not echoed) on a terminal, or piped. */
async function readKey(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.trim();
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const muted = rl as unknown as { _writeToOutput: (s: string) => void };
  process.stderr.write('API key: ');
  muted._writeToOutput = () => undefined;
  try {
    return (await rl.question('')).trim();
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}

export function addLoginCommands(program: Command): void {
  program
    .command('login')
    .description(
      'Store the API key for a service in the OS keychain (or get a trial key with --trial).',
    )
    .option(
      '--service <url>',
      'the service base URL (default: the embedded one, which needs no login)',
    )
    .option('--trial', 'get a trial key through a browser session instead of typing a key')
    .action(async (opts: { service?: string; trial?: boolean }) => {
      if (!opts.service) {
        process.stdout.write(
          'The embedded service needs no login: LabelDesk keeps its own key (in the keychain, or in memory for one run where there is none).\n',
        );
        return;
      }
      const app = openAppContext();
      try {
        const client = new ServiceClient({ baseUrl: opts.service });
        if (opts.trial) {
          const got = await app.credentials.loginWithTrial(opts.service, {
            createSession: (deviceId) => client.session(deviceId),
            exchangeSdkKey: async (token) => {
              const k = await client.withApiKey(token).sdkKey();
              return { key: k.key, frames: k.frames, expiresAt: k.expiresAt ?? null };
            },
          });
          process.stdout.write(
            `Trial key stored in the keychain: ${got.frames} frames${got.expiresAt ? `, until ${got.expiresAt}` : ''}.\n`,
          );
          return;
        }
        const key = await readKey();
        if (!key) throw new CliUsageError('No key was given.');
        // Check it before keeping it: a mistyped key should fail here, not in the middle of a run.
        const status = await client.withApiKey(key).keyStatus();
        await app.credentials.saveKey(opts.service, key);
        process.stdout.write(
          `Key stored in the keychain (${status.audience}, ${status.remaining} frames left).\n`,
        );
      } finally {
        app.close();
      }
    });

  program
    .command('logout')
    .description('Remove the key for a service from the OS keychain.')
    .option('--service <url>', 'the service base URL (default: the embedded service key)')
    .action(async (opts: { service?: string }) => {
      const app = openAppContext();
      try {
        const removed = await app.credentials.forget(opts.service ?? EMBEDDED_ACCOUNT);
        process.stdout.write(
          removed ? 'Key removed from the keychain.\n' : 'There was no key for that service.\n',
        );
      } finally {
        app.close();
      }
    });
}
