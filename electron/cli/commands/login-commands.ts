import type { Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { openAppContext, type AppContext } from '../../application/app-context.js';
import {
  keychainHoldsKey,
  saveCheckedKey,
  startTrialKey,
} from '../../application/service-login.js';
import { InterruptedError, readSecret } from '../hidden-input.js';
import { UsageError, EMBEDDED_ACCOUNT } from '../../application/service-connection.js';

/**
 * A trial key must not silently take the place of a key the user stored for the same service:
 * on a terminal the user is asked, elsewhere `--force` is required. (LABELDESK_API_KEY is left
 * out: only what the keychain holds would be replaced.)
 */
async function mayReplaceStoredKey(app: AppContext, service: string, force: boolean) {
  if (force) return true;
  if (!(await keychainHoldsKey(app, service))) return true;
  if (!(process.stdin.isTTY && process.stderr.isTTY)) {
    throw new UsageError(
      `A key is already stored for ${service}; \`labeldesk login --trial --force\` replaces it with a trial key.`,
    );
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-C at the question ends the command as an interrupt (exit 130), not as a "no".
  const interrupted = new AbortController();
  rl.once('SIGINT', () => interrupted.abort());
  try {
    const answer = await rl
      .question(`A key is already stored for ${service}. Replace it with a trial key? [y/N] `, {
        signal: interrupted.signal,
      })
      .catch((err: unknown) => {
        throw interrupted.signal.aborted ? new InterruptedError('Interrupted.') : err;
      });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
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
    .option('--force', 'with --trial: replace a key already stored for the service')
    .action(async (opts: { service?: string; trial?: boolean; force?: boolean }) => {
      if (!opts.service) {
        process.stdout.write(
          'The embedded service needs no login: LabelDesk keeps its own key (in the keychain, or in memory for one run where there is none).\n',
        );
        return;
      }
      const app = openAppContext();
      try {
        if (opts.trial) {
          if (!(await mayReplaceStoredKey(app, opts.service, opts.force ?? false))) {
            process.stdout.write('The stored key was kept.\n');
            return;
          }
          const got = await startTrialKey(app, opts.service);
          process.stdout.write(
            `Trial key stored in the keychain: ${got.frames ?? 'an unpublished number of'} frames${got.expiresAt ? `, until ${got.expiresAt}` : ''}.\n`,
          );
          return;
        }
        const key = (await readSecret('API key: ')).trim();
        if (!key) throw new UsageError('No key was given.');
        // Check it before keeping it: a mistyped key should fail here, not in the middle of a run.
        const status = await saveCheckedKey(app, opts.service, key);
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
