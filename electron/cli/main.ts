/** The `labeldesk` command. Each subcommand lives in its own file; exit codes: 0 ok, 1 failures, 2 usage. */
import { Command, CommanderError } from 'commander';
import { buildVersion } from '../node-lib/app-paths.js';
import { addServeCommand } from './serve-command.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, credits: 3 } as const;

export async function main(argv: readonly string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('labeldesk')
    .description('Batch labelling of local media folders with an object-detection service.')
    .version(buildVersion(), '-V, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  addServeCommand(program, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ||
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version'
        ? EXIT.ok
        : EXIT.usage;
    }
    process.stderr.write(`labeldesk: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failed;
  }
  return exitCode;
}
