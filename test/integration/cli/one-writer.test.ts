/**
 * One library, one writer: two real `labeldesk label` processes on one LABELDESK_HOME against a
 * `labeldesk serve` (null engine, 300 ms per image, behind a counting proxy). The second refuses
 * with exit 4 and names the run it met, or with --wait queues behind it and reuses its results:
 * every file is sent and charged once. Reading (plan, status) goes on during a run, and a run
 * killed with -9 leaves no lock behind.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { libraryLockState } from '../../../electron/core/store/library-lock.js';
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
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';

const KEY = 'ldk_one_writer_key_0001';
const FILES = 16;
const COST = 4; // objects, per image

let serve: ServeProcess;
let proxy: FaultProxy;
let shared: { dir: string; remove: () => Promise<void> };
let folder: string;

beforeAll(async () => {
  shared = await cliHome();
  serve = await runServe([
    '--engine',
    'null',
    '--latency-ms',
    '300',
    '--data',
    join(shared.dir, 'service'),
    '--key',
    `${KEY}:100000`,
  ]);
  proxy = await startFaultProxy(serve.url);
  folder = join(shared.dir, 'photos');
  await mkdir(folder);
  await distinctJpegs(folder, FILES);
});
afterAll(async () => {
  await proxy?.close();
  await serve?.stop();
  await shared?.remove();
});

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_API_KEY: KEY });
});
afterEach(() => t.remove());

const labelArgs = (...more: string[]) => [
  'label',
  folder,
  '--service',
  proxy.url,
  '--yes',
  '--json',
  '--concurrency',
  '1',
  ...more,
];
const remaining = async () => (await keyStatus(serve.url, KEY)).remaining;
const sent = () => proxy.forwarded('POST', '/infer/image');
const doneFiles = () =>
  queryLibrary<{ n: number }>(
    t.home,
    "SELECT count(*) AS n FROM submissions WHERE state = 'done'",
  )[0]?.n ?? 0;

describe('two label runs on one library', () => {
  it('the second refuses with exit 4 and names the first; reading goes on meanwhile', async () => {
    const [before, sentBefore] = [await remaining(), sent()];
    const first = startCli(labelArgs(), env);
    await until('the first run to be sending', () => doneFiles() > 0);

    const second = await runCli(labelArgs(), env);
    expect(second.code, second.stderr).toBe(4);
    expect(second.stderr).toContain(`\`labeldesk label ${folder}\` (pid ${first.child.pid}, since`);
    expect(second.stderr).toContain('is labelling this library');
    expect(second.stdout).toBe('');

    // Reading does not wait for the run: at 300 ms a file, one at a time, it has seconds to go.
    const plan = await runCli(['plan', folder, '--service', proxy.url, '--json'], env);
    expect(plan.code, plan.stderr).toBe(0);
    const status = await runCli(['status', '--service', proxy.url, '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(libraryLockState(t.home)).toMatchObject({
      held: true,
      holder: { pid: first.child.pid },
    });
    expect(doneFiles()).toBeLessThan(FILES);

    const ended = await first.exited;
    expect(ended.code, first.stderr()).toBe(0);
    expect(lastJson<SummaryJson>(first.stdout())).toMatchObject({
      labelled: FILES,
      framesSpent: FILES * COST,
    });
    expect(sent() - sentBefore).toBe(FILES);
    expect(before - (await remaining())).toBe(FILES * COST);
    expect(libraryLockState(t.home)).toEqual({ held: false });
  }, 60_000);

  it('with --wait, runs started together take turns: each file is sent and charged once', async () => {
    const [before, sentBefore] = [await remaining(), sent()];
    const runs = [startCli(labelArgs('--wait'), env), startCli(labelArgs('--wait'), env)];
    const ended = await Promise.all(runs.map((r) => r.exited));
    for (const [i, e] of ended.entries()) expect(e.code, runs[i]?.stderr()).toBe(0);
    const summaries = runs.map((r) => lastJson<SummaryJson>(r.stdout()));
    const charged = before - (await remaining());
    expect(charged).toBe(FILES * COST);
    expect(sent() - sentBefore).toBe(FILES);
    expect(summaries.reduce((sum, s) => sum + s.framesSpent, 0)).toBe(charged);
    // One labelled everything; the other found it done and reused it at no cost.
    expect(summaries.map((s) => [s.labelled, s.reused]).sort()).toEqual([
      [0, FILES],
      [FILES, 0],
    ]);
    const waiter = runs.find((r) => /Waiting for `labeldesk label/.test(r.stderr()));
    expect(waiter, runs.map((r) => r.stderr()).join('\n---\n')).toBeDefined();
    expect(summaries.every((s) => s.uncertain.length === 0)).toBe(true);
  }, 90_000);

  it('a run killed with -9 leaves no lock: the next run proceeds at once', async () => {
    const first = startCli(labelArgs(), env);
    await until('the first run to be sending', () => doneFiles() > 0);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(libraryLockState(t.home)).toEqual({ held: false });

    const next = await runCli(labelArgs('--retry-uncertain'), env);
    expect(next.stderr).not.toContain('is labelling this library');
    expect(next.code, next.stderr).toBe(0);
    expect(doneFiles()).toBe(FILES);
  }, 60_000);
});
