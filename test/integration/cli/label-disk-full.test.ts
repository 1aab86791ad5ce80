/**
 * A full disk under `labeldesk label`: LABELDESK_HOME is a small tmpfs, filled while answers are
 * on their way. Paid answers are kept and saved once space returns (never failed, never sent and
 * charged twice); the user is told the disk is full. Mounting needs root (as in CI): where it is
 * not permitted, the test says so and is skipped.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import {
  cliEnv,
  cliHome,
  lastJson,
  runCli,
  startCli,
  until,
  type SummaryJson,
} from '../../support/cli-run.js';
import { keyStatus, queryLibrary } from '../../support/crash-cli.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';

const KEY = 'ldk_disk_full_key_000001';
const FILES = 10;
const COST = 4;
let t: { home: string; dir: string; remove: () => Promise<void> };
let serve: ServeProcess | undefined;
let mounted = false;
let why = '';

beforeAll(async () => {
  t = await cliHome();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', t.home], { stdio: 'pipe' });
    mounted = true;
  } catch (err) {
    why = String((err as { stderr?: Buffer }).stderr ?? err).trim();
  }
});
afterAll(async () => {
  await serve?.stop();
  if (mounted) execFileSync('umount', [t.home]);
  await t.remove();
});

/** Fills the file system of `dir` to the last byte; returns the files to delete to free it. */
async function fill(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const size of [256 * 1024, 4096, 512]) {
    for (;;) {
      const file = join(dir, `fill-${files.length}`);
      try {
        await writeFile(file, Buffer.alloc(size, 1));
        files.push(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        await rm(file, { force: true });
        break;
      }
    }
  }
  return files;
}

function emptyLog(home: string): void {
  const db = new Database(join(home, 'library.sqlite'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

const sentRows = (home: string) =>
  queryLibrary<{ n: number }>(
    home,
    "SELECT count(*) AS n FROM submissions WHERE state = 'sending'",
  )[0]?.n ?? 0;

const doneRows = (home: string) =>
  queryLibrary<{ n: number }>(home, "SELECT count(*) AS n FROM submissions WHERE state = 'done'")[0]
    ?.n ?? 0;

describe('a full disk during a run', () => {
  it('keeps the paid answers, saves them when space returns, and charges nothing twice', async (ctx) => {
    if (!mounted) {
      console.log(`skipped: cannot mount a tmpfs as LABELDESK_HOME here (${why}); CI runs as root`);
      ctx.skip();
    }
    const dir = join(t.dir, 'photos');
    await mkdir(dir);
    await distinctJpegs(dir, FILES);
    serve = await runServe([
      '--engine',
      'null',
      '--latency-ms',
      '1500',
      '--data',
      join(t.dir, 'service'),
      '--key',
      `${KEY}:100000`,
    ]);
    const env = cliEnv(t.home, { LABELDESK_API_KEY: KEY });
    const before = (await keyStatus(serve.url, KEY)).remaining;
    const args = ['label', dir, '--service', serve.url, '--yes', '--json', '--concurrency', '2'];
    const run = startCli(args, env);
    await until('the first files to be on their way', () => sentRows(t.home) > 0);
    // SQLite writes a reset log over its old pages without growing it, so a full disk would
    // refuse nothing until the log grows: it is emptied first, and the next save must grow it.
    emptyLog(t.home);
    const filler = await fill(t.home);
    await run.waitForOutput(/disk holding the library .* is full/, { stream: 'stderr' });
    // Space comes back only once every answer on its way has been paid for and waits in memory:
    // the service charged each file the library has sent, done or still held (not a fixed wait).
    await until('every answer on its way to be paid for and held in memory', async () => {
      const paid = before - (await keyStatus(serve!.url, KEY)).remaining;
      return paid === COST * (sentRows(t.home) + doneRows(t.home)) && sentRows(t.home) > 0;
    });
    await Promise.all(filler.map((f) => rm(f)));
    const ended = await run.exited;
    const first = lastJson<SummaryJson & { notSent: number; diskFull: boolean }>(run.stdout());
    const afterFirst = before - (await keyStatus(serve.url, KEY)).remaining;
    // Whether an answer was already held when the disk filled is a race; the return of space is not.
    expect(run.stderr()).toMatch(/answers kept in memory are saved/);
    expect(first.failed).toEqual([]);
    expect(first.uncertain).toEqual([]);
    expect(first.framesSpent).toBe(afterFirst);

    const second = await runCli(args, env);
    const s = lastJson<SummaryJson>(second.stdout);
    const total = before - (await keyStatus(serve.url, KEY)).remaining;
    console.log(
      `disk full: run 1 exit ${ended.code}, labelled ${first.labelled}, not sent ${first.notSent}, summary ${first.framesSpent}, key ${afterFirst}; run 2 exit ${second.code}, labelled ${s.labelled}, reused ${s.reused}, summary ${s.framesSpent}; key total ${total} for ${FILES} files × ${COST}`,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(s).toMatchObject({ failed: [], uncertain: [] });
    expect(first.labelled + s.labelled).toBe(FILES);
    expect(total).toBe(FILES * COST);
  }, 120_000);
});
