/**
 * `labeldesk` as a user runs it: a real process of the compiled CLI, with its own LABELDESK_HOME,
 * no key or engine choice inherited from the developer's shell, and nothing read from a terminal.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_HOME_MARKER } from '../../electron/application/service-connection.js';
import { CLI } from './run-serve.js';
import { tempDir } from './temp-dir.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the process has ended, by code or by signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until stdout (or stderr with `stream: 'stderr'`) matches; throws with both on timeout. */
  waitForOutput(
    pattern: RegExp,
    options?: { stream?: 'stdout' | 'stderr'; timeoutMs?: number },
  ): Promise<RegExpExecArray>;
}

/** Variables a developer may have set that would change what a test sees. */
const DROPPED = [
  'LABELDESK_API_KEY',
  'LABELDESK_EMBEDDED_ENGINE',
  'LABELDESK_HOME',
  'DISPLAY',
  'WAYLAND_DISPLAY',
];

/** The environment of one CLI call: the parent's minus LabelDesk's own variables, plus `extra`. */
export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !DROPPED.includes(name));
  return { ...Object.fromEntries(inherited), LABELDESK_HOME: home, ...extra };
}

/** A fresh LABELDESK_HOME marked as a test library (and a scratch folder beside it), removed by `remove`. */
export async function cliHome(): Promise<{
  home: string;
  dir: string;
  remove: () => Promise<void>;
}> {
  const t = await tempDir('labeldesk-cli-');
  const home = join(t.dir, 'home');
  await mkdir(home);
  // Lets LABELDESK_EMBEDDED_ENGINE=null run here: the stand-in refuses unmarked (real) libraries.
  await writeFile(join(home, TEST_HOME_MARKER), '');
  return { home, dir: t.dir, remove: t.remove };
}

export function startCli(args: string[], env: NodeJS.ProcessEnv, input?: string): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    env,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin?.end(input);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitForOutput(pattern, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 30_000);
      for (;;) {
        const m = pattern.exec(options.stream === 'stderr' ? err : out);
        if (m) return m;
        if (ended || Date.now() > deadline) {
          throw new Error(
            `labeldesk ${args[0]} ${ended ? 'ended' : 'timed out'} before printing ${String(pattern)}\n--- stdout\n${out}\n--- stderr\n${err}`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

/** Runs the CLI to its end (killed after `timeoutMs`, which fails the test with its output). */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const run = startCli(args, env, options.input);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const { code, signal } = await run.exited;
  clearTimeout(timer);
  if (signal) {
    throw new Error(
      `labeldesk ${args.join(' ')} ended by ${signal}\n${run.stdout()}\n${run.stderr()}`,
    );
  }
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** The JSON document on the last non-empty line of `text` (what `--json` prints). */
export function lastJson<T = Record<string, unknown>>(text: string): T {
  const lines = text.split('\n').filter((l) => l.trim());
  const last = lines[lines.length - 1];
  if (last === undefined) throw new Error('no output to parse as JSON');
  return JSON.parse(last) as T;
}

/** Runs a `--json` command that must succeed and returns its document. */
export async function cliJson<T = Record<string, unknown>>(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<T> {
  const r = await runCli([...args, '--json'], env);
  if (r.code !== 0) throw new Error(`labeldesk ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return lastJson<T>(r.stdout);
}

export interface StatusJson {
  service: string;
  version: string;
  health: string;
  ai: string;
  audience: string;
  remaining: number;
  hourRemaining: number;
  expiresAt: string | null;
}

export interface IssueJson {
  path: string;
  code: string;
  message: string;
}

export interface SummaryJson {
  solution: string;
  labelled: number;
  reused: number;
  failed: IssueJson[];
  uncertain: IssueJson[];
  waitingForCredits: number;
  framesSpent: number;
  stoppedFor: string | null;
  interrupted: boolean;
  exitCode: number;
}

/** Waits until `check` holds, polling every 50 ms; throws after `timeoutMs`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Hourly limits follow the clock hour, and a one-shot run waits up to a minute for the next one.
 * A test about stopping for the hour gives the CLI and `labeldesk serve` this environment: an
 * injected clock placed ten minutes into an hour (LABELDESK_CLOCK_OFFSET_MS), instead of waiting
 * out the wall clock when the real hour is nearly over.
 */
export function midHourClock(): NodeJS.ProcessEnv {
  const hour = 3_600_000;
  const target = Math.floor(Date.now() / hour) * hour + 10 * 60_000;
  return { LABELDESK_CLOCK_OFFSET_MS: String(target - Date.now()) };
}

export interface TerminalCli {
  /** Everything the terminal showed so far (stdout and stderr together, as on a screen). */
  output(): string;
  /** Types on the terminal (`\x03` is Ctrl-C). */
  type(text: string): void;
  exited: Promise<number | null>;
}

/**
 * `labeldesk` on a terminal, as a person runs it (so it asks before spending): `script` from
 * util-linux gives it one. Undefined (the caller skips, saying so) where `script` is missing.
 */
export function cliOnTerminal(args: string[], env: NodeJS.ProcessEnv): TerminalCli | undefined {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
  } catch {
    console.log('skipped: `script` (util-linux) is not installed, so no terminal can be given');
    return undefined;
  }
  const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return {
    output: () => out,
    type: (text) => child.stdin.write(text),
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
}
