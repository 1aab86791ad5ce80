/**
 * Helpers for the hard-path CLI tests: `labeldesk label` as a real process that can be SIGKILLed
 * at a chosen moment, a read-only look at its library database, the service's key balance, and
 * media whose upload sizes tell the files apart at the fault proxy.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../electron/node-lib/app-paths.js';
import { CLI } from './run-serve.js';
import { jpeg } from './synth-media.js';

export interface LabelRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the process has exited, by code or by signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `labeldesk <args>` with its own LABELDESK_HOME and key; nothing read from the terminal. */
export function startCli(args: string[], env: NodeJS.ProcessEnv): LabelRun {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs the CLI to its end; fails the test (with its output) if it takes longer than `timeoutMs`. */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = startCli(args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const { code, signal } = await run.exited;
  clearTimeout(timer);
  if (signal) throw new Error(`labeldesk ${args[0]} ended by ${signal}: ${run.stderr()}`);
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** Polls `check` every 20 ms until it returns true; throws after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A read-only query on the library database of a LABELDESK_HOME (undefined before it exists). */
export function queryLibrary<T>(home: string, sql: string, ...params: unknown[]): T[] {
  let db: Database.Database;
  try {
    db = new Database(join(home, 'library.sqlite'), { readonly: true, fileMustExist: true });
  } catch {
    return [];
  }
  try {
    db.pragma('busy_timeout = 2000');
    return db.prepare(sql).all(...params) as T[];
  } catch (err) {
    // The schema may not be there yet while the CLI is still creating it.
    if (/no such table/.test(String(err))) return [];
    throw err;
  } finally {
    db.close();
  }
}

export function integrityOf(home: string): string {
  const db = new Database(join(home, 'library.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .join('\n');
  } finally {
    db.close();
  }
}

export async function keyStatus(
  url: string,
  key: string,
): Promise<{ remaining: number; hourRemaining: number }> {
  const res = await fetch(`${url}/key`, { headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`GET /key answered ${res.status}`);
  return (await res.json()) as { remaining: number; hourRemaining: number };
}

/**
 * `count` JPEGs named img-000.jpg…, each a different picture and a different size (a comment pads
 * each one by its index), so an upload's byte count at the proxy names its file.
 */
export async function writeImages(dir: string, count: number): Promise<Map<number, string>> {
  const base = await jpeg(96, 72, 0);
  const bySize = new Map<number, string>();
  for (let i = 0; i < count; i++) {
    // A COM segment right after SOI: a valid JPEG whose size and hash differ per file.
    const text = Buffer.from(`labeldesk crash test ${i} ${'x'.repeat(i)}`);
    const com = Buffer.alloc(4);
    com.writeUInt16BE(0xfffe, 0);
    com.writeUInt16BE(text.length + 2, 2);
    const bytes = Buffer.concat([base.subarray(0, 2), com, text, base.subarray(2)]);
    const name = `img-${String(i).padStart(3, '0')}.jpg`;
    await writeFile(join(dir, name), bytes);
    bySize.set(bytes.length, name);
  }
  return bySize;
}

/** The child runs compiled JS: refuse to test a build older than the sources it exercises. */
export function assertFreshBuild(folders: readonly string[]): void {
  const root = packageRoot();
  for (const folder of folders) {
    const src = join(root, folder);
    for (const f of readdirSync(src, { recursive: true }) as string[]) {
      if (!f.endsWith('.ts')) continue;
      const built = join(root, 'build', folder, f.replace(/\.ts$/, '.js'));
      let builtAt = 0;
      try {
        builtAt = statSync(built).mtimeMs;
      } catch {
        // Missing: reported below.
      }
      if (builtAt < statSync(join(src, f)).mtimeMs) {
        throw new Error(`${built} is missing or older than its source: run npm run build:node`);
      }
    }
  }
}
