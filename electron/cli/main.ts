/** The `labeldesk` command. Each subcommand lives in its own file; exit codes: 0 ok, 1 failures, 2 usage, 3 credits, 4 library busy, 5 library damaged, 6 doctor: not understood, 130 interrupted. */
import { Command, CommanderError } from 'commander';
import { join } from 'node:path';
import {
  isDamagedDatabase,
  LibraryBusyError,
  LibraryDamagedError,
} from '../application/app-context.js';
import { labeldeskHome } from '../node-lib/app-paths.js';
import { terminalText } from './terminal-text.js';
import { buildVersion } from '../node-lib/app-paths.js';
import { addAppCommand } from './commands/app-command.js';
import { addAutoAcceptCommand } from './commands/auto-accept-command.js';
import { addDoctorCommand } from './commands/doctor-command.js';
import { addEvaluateCommand } from './commands/evaluate-command.js';
import { addExportCommand } from './commands/export-command.js';
import { addImportCommand } from './commands/import-command.js';
import { addJobsCommand } from './commands/jobs-command.js';
import { addLabelCommand } from './commands/label-command.js';
import { addLoginCommands } from './commands/login-commands.js';
import { addPlanCommand } from './commands/plan-command.js';
import { addStatusCommand } from './commands/status-command.js';
import { checkServiceOption, describeError, isUsageError } from './cli-errors.js';
import { InterruptedError } from './hidden-input.js';
import { addServeCommand } from './serve-command.js';

import { EXIT } from './run-summary.js';

function libraryDamaged(err: unknown): LibraryDamagedError {
  return new LibraryDamagedError(join(labeldeskHome(), 'library.sqlite'), err);
}

export async function main(argv: readonly string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('labeldesk')
    .description('Batch labelling of local media folders with an object-detection service.')
    .version(buildVersion(), '-V, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  const setExit = (code: number) => (exitCode = code);
  addServeCommand(program, setExit);
  addLabelCommand(program, setExit);
  addPlanCommand(program);
  addStatusCommand(program);
  addDoctorCommand(program, setExit);
  addLoginCommands(program);
  addExportCommand(program);
  addImportCommand(program, setExit);
  addEvaluateCommand(program);
  addAutoAcceptCommand(program);
  addJobsCommand(program);
  addAppCommand(program);
  // Every command's --service is checked once, here, before anything is opened or started.
  let service: string | undefined;
  program.hook('preAction', (_, command) => {
    const value = (command.opts() as { service?: unknown }).service;
    if (typeof value === 'string') {
      checkServiceOption(value);
      service = value;
    }
  });
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
    if (isDamagedDatabase(err)) {
      // Damage found after the open (a page deep in the file): the same sentence and code.
      const damaged = err instanceof LibraryDamagedError ? err : libraryDamaged(err);
      process.stderr.write(`labeldesk: ${terminalText(damaged.message)}\n`);
      return EXIT.libraryDamaged;
    }
    process.stderr.write(`labeldesk: ${describeError(err, service)}\n`);
    if (err instanceof InterruptedError) return EXIT.interrupted;
    if (err instanceof LibraryBusyError) return EXIT.libraryBusy;
    // A mistyped --solution or --service, or an export target in the way, are usage errors.
    return isUsageError(err) ? EXIT.usage : EXIT.failed;
  }
  return exitCode;
}
