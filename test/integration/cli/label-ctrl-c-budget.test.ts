/**
 * `labeldesk label` as a user stops it: Ctrl-C mid-run records the answers on their way (none
 * uncertain) and exits 130, the next run finishes with 0 and nothing is paid twice; Ctrl-C at the
 * confirmation prompt exits 130; and `--watch --budget` spends the run's budget once, whatever
 * the number of batches.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import {
  cliEnv,
  cliOnTerminal,
  cliHome,
  lastJson,
  runCli,
  startCli,
  until,
  type CliProcess,
  type SummaryJson,
} from '../../support/cli-run.js';
import { keyStatus, queryLibrary } from '../../support/crash-cli.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';

const KEY = 'ldk_ctrl_c_budget_key_01';
const COST = 4;
let t: { home: string; dir: string; remove: () => Promise<void> };
let serve: ServeProcess | undefined;
let run: CliProcess | undefined;

beforeEach(async () => {
  t = await cliHome();
});
afterEach(async () => {
  if (run && run.child.exitCode === null && run.child.signalCode === null) {
    run.child.kill('SIGKILL');
    await run.exited;
  }
  run = undefined;
  await serve?.stop();
  serve = undefined;
  await t.remove();
});

async function photos(count: number): Promise<string> {
  const dir = join(t.dir, 'photos');
  await mkdir(dir, { recursive: true });
  await distinctJpegs(dir, count);
  return dir;
}

const doneRows = (home: string) =>
  queryLibrary<{ n: number }>(home, "SELECT count(*) AS n FROM submissions WHERE state = 'done'")[0]
    ?.n ?? 0;

describe('Ctrl-C during a run', () => {
  it('records the answers on their way, exits 130; the re-run exits 0; every file paid once', async () => {
    const files = 12;
    const dir = await photos(files);
    serve = await runServe([
      '--engine',
      'null',
      '--latency-ms',
      '400',
      '--data',
      join(t.dir, 'service'),
      '--key',
      `${KEY}:100000`,
    ]);
    const env = cliEnv(t.home, { LABELDESK_API_KEY: KEY });
    const before = (await keyStatus(serve.url, KEY)).remaining;
    const args = ['label', dir, '--service', serve.url, '--yes', '--json', '--concurrency', '2'];
    run = startCli(args, env);
    await until('the first answers to be saved', () => doneRows(t.home) >= 2);
    run.child.kill('SIGINT');
    const ended = await run.exited;
    const first = lastJson<SummaryJson & { notSent: number }>(run.stdout());
    expect(ended, run.stderr()).toEqual({ code: 130, signal: null });
    expect(first).toMatchObject({ interrupted: true, uncertain: [], failed: [], exitCode: 130 });
    expect(first.labelled + first.notSent).toBe(files);
    expect(run.stderr()).toContain('Stopping: no new file is sent');
    const afterFirst = before - (await keyStatus(serve.url, KEY)).remaining;

    const second = await runCli(args, env);
    const s = lastJson<SummaryJson>(second.stdout);
    const total = before - (await keyStatus(serve.url, KEY)).remaining;
    console.log(
      `Ctrl-C then re-run: exit ${ended.code} then ${second.code}; run 1 labelled ${first.labelled}, summary ${first.framesSpent}, key ${afterFirst}; run 2 labelled ${s.labelled}, summary ${s.framesSpent}; key total ${total} for ${files} files × ${COST}`,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(s).toMatchObject({ uncertain: [], failed: [], labelled: first.notSent });
    expect(first.framesSpent).toBe(afterFirst);
    expect(total).toBe(files * COST);
    expect(first.framesSpent + s.framesSpent).toBe(total);
  }, 90_000);

  it('at the confirmation prompt: exits 130 and sends nothing', async (ctx) => {
    const dir = await photos(2);
    const env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
    // On a terminal it asks; a Ctrl-C byte is typed once the question shows.
    const tty = cliOnTerminal(['label', dir], env);
    if (!tty) return ctx.skip();
    await until('the question', () => tty.output().includes('[y/N]'));
    tty.type('\x03');
    const code = await tty.exited;
    const out = tty.output();
    console.log(`Ctrl-C at the prompt: exit ${code}`);
    expect(code, out).toBe(130);
    expect(out).toContain('Nothing was sent.');
    const status = await runCli(['status', '--json'], env);
    expect(lastJson<{ remaining: number }>(status.stdout).remaining).toBe(100_000);
  }, 60_000);
});

describe('--watch --budget', () => {
  it('the budget is the run’s: batches after it is spent wait for credits', async () => {
    const dir = await photos(1);
    const env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
    run = startCli(['label', dir, '--watch', '--budget', '4', '--yes'], env);
    await run.waitForOutput(/^Labelled 1 · .* frames spent 4$/m);
    for (let batch = 1; batch <= 3; batch++) {
      await distinctJpegs(dir, 1, `late${batch}-`, 40 + batch * 8);
      await run.waitForOutput(
        new RegExp(
          `(^Labelled 0 · .* waiting for credits 1 · frames spent 0$[\\s\\S]*){${batch}}`,
          'm',
        ),
        { timeoutMs: 20_000 },
      );
    }
    // Ctrl-C after the budget is spent: still 130 (it was 0), like every other Ctrl-C.
    run.child.kill('SIGINT');
    expect((await run.exited).code).toBe(130);
    const status = await runCli(['status', '--json'], env);
    const spent = 100_000 - lastJson<{ remaining: number }>(status.stdout).remaining;
    console.log(`--watch --budget 4 over 4 batches: key spent ${spent}`);
    expect(run.stdout()).toContain('Stopped: The budget for this run is spent.');
    expect(spent).toBe(4);
  }, 90_000);
});
