/** The `labeldesk` command. Each subcommand lives in its own file; exit codes: 0 ok, 1 failures, 2 usage, 3 credits, 4 library busy, 5 library damaged, 6 doctor: not understood, 130 interrupted. */
import { Command, CommanderError } from 'commander';
import { join } from 'node:path';
import {
  isDamagedDatabase,
  LibraryBusyError,
  LibraryDamagedError,
} from '../application/app-context.js';
import { buildVersion, labeldeskHome } from '../node-lib/app-paths.js';
import { terminalText } from './terminal-text.js';
import { checkServiceOption, describeError, isUsageError } from './cli-errors.js';
import { InterruptedError } from './hidden-input.js';
import { EXIT } from './run-summary.js';

type AddCommand = (program: Command, setExit: (code: number) => void) => void;

/**
 * Each command's module is loaded only when it runs (all of them for the overall help or an
 * unknown name): `labeldesk label` starts without the export, server, bridge and image code the
 * other commands need (start-up is part of every run's time). Listed in the order of the help.
 */
const COMMANDS: readonly { names: readonly string[]; load: () => Promise<AddCommand> }[] = [
  { names: ['serve'], load: async () => (await import('./serve-command.js')).addServeCommand },
  {
    names: ['label'],
    load: async () => (await import('./commands/label-command.js')).addLabelCommand,
  },
  {
    names: ['plan'],
    load: async () => (await import('./commands/plan-command.js')).addPlanCommand,
  },
  {
    names: ['status'],
    load: async () => (await import('./commands/status-command.js')).addStatusCommand,
  },
  {
    names: ['doctor'],
    load: async () => (await import('./commands/doctor-command.js')).addDoctorCommand,
  },
  {
    names: ['login', 'logout'],
    load: async () => (await import('./commands/login-commands.js')).addLoginCommands,
  },
  {
    names: ['export'],
    load: async () => (await import('./commands/export-command.js')).addExportCommand,
  },
  {
    names: ['import'],
    load: async () => (await import('./commands/import-command.js')).addImportCommand,
  },
  {
    names: ['evaluate'],
    load: async () => (await import('./commands/evaluate-command.js')).addEvaluateCommand,
  },
  {
    names: ['auto-accept'],
    load: async () => (await import('./commands/auto-accept-command.js')).addAutoAcceptCommand,
  },
  {
    names: ['models'],
    load: async () => (await import('./commands/models-command.js')).addModelsCommand,
  },
  {
    names: ['min-score'],
    load: async () => (await import('./commands/min-score-command.js')).addMinScoreCommand,
  },
  {
    names: ['jobs'],
    load: async () => (await import('./commands/jobs-command.js')).addJobsCommand,
  },
  {
    names: ['team'],
    load: async () => (await import('./commands/team-command.js')).addTeamCommand,
  },
  {
    names: ['config'],
    load: async () => (await import('./commands/config-command.js')).addConfigCommand,
  },
  { names: ['app'], load: async () => (await import('./commands/app-command.js')).addAppCommand },
];

/** The commands to register: the one named first on the command line, none for the version, or every one. */
function commandsFor(argv: readonly string[]): typeof COMMANDS {
  // The program's own options (--help, --version) take no value: the first word is the command.
  const name = argv.find((a) => !a.startsWith('-'));
  if (name === undefined && argv.some((a) => a === '-V' || a === '--version')) return [];
  const named = COMMANDS.filter((c) => name !== undefined && c.names.includes(name));
  return named.length > 0 ? named : COMMANDS;
}

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
  const adders = await Promise.all(commandsFor(argv).map((c) => c.load()));
  for (const add of adders) add(program, setExit);
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
