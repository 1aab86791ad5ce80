/**
 * Video jobs outlive a `label` run: interrupted with Ctrl-C while a clip is analysed, the job stays
 * open, `labeldesk jobs` lists it, and the next run collects it without uploading or paying again —
 * or `labeldesk jobs --cancel` cancels it at the service. `labeldesk serve` with the null engine
 * and a 300 ms latency keeps the job running long enough.
 */
import Database from 'better-sqlite3';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readCsv } from '../../support/cli-exports.js';
import {
  cliEnv,
  cliHome,
  cliJson,
  lastJson,
  runCli,
  startCli,
  until,
  type StatusJson,
  type SummaryJson,
} from '../../support/cli-run.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';
import { clip } from '../../support/synth-media.js';

interface JobRow {
  jobId: string;
  path: string;
  solution: string;
  status: string;
  progress: number;
}

const KEY = 'ldk_cli_jobs_key_0001';
/** 20 s sampled at 5 fps: 100 frames at 2 each; about 8 s of work at 300 ms, 4 frames at once. */
const CLIP_FRAMES = 100;
const CLIP_COST = CLIP_FRAMES * 2;

let serve: ServeProcess;
let serviceData: { home: string; dir: string; remove: () => Promise<void> };
let clipDir: string;
let clipFile: string;

beforeAll(async () => {
  serviceData = await cliHome();
  serve = await runServe([
    '--engine',
    'null',
    '--latency-ms',
    '300',
    '--data',
    join(serviceData.dir, 'service'),
    '--key',
    KEY,
  ]);
  clipDir = join(serviceData.dir, 'clips');
  await mkdir(clipDir);
  clipFile = await clip(clipDir, 'long-walk.mp4', 20, '160x120', 10);
});
afterAll(async () => {
  await serve.stop();
  await serviceData.remove();
});

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_API_KEY: KEY });
});
afterEach(() => t.remove());

/** Job ids the library has stored for clips not finished yet (read-only, while a run writes). */
function openJobIds(home: string): string[] {
  let db: Database.Database;
  try {
    db = new Database(join(home, 'library.sqlite'), { readonly: true, fileMustExist: true });
  } catch {
    return [];
  }
  try {
    db.pragma('busy_timeout = 2000');
    const rows = db
      .prepare(
        "SELECT job_id FROM submissions WHERE job_id IS NOT NULL AND state NOT IN ('done', 'failed', 'cancelled')",
      )
      .all() as { job_id: string }[];
    return rows.map((r) => r.job_id);
  } catch {
    return []; // the schema is still being created
  } finally {
    db.close();
  }
}

const status = () => cliJson<StatusJson>(['status', '--service', serve.url], env);
const uploads = () => readdir(join(serviceData.dir, 'service', 'uploads'));

/** Starts `label` on the clip and stops it with SIGINT once its job is open; returns the job. */
async function interruptWhileAnalysing(): Promise<{ job: JobRow; stdout: string; stderr: string }> {
  const run = startCli(['label', clipDir, '--service', serve.url, '--yes'], env);
  // The library database is watched directly: a `labeldesk jobs` process every few hundred ms
  // would compete for the CPU with the run it watches.
  await until('the clip’s job to be open', () => openJobIds(t.home).length > 0, 20_000);
  const [job] = await cliJson<JobRow[]>(['jobs'], env);
  expect(job).toBeDefined();
  run.child.kill('SIGINT');
  const ended = await run.exited;
  expect(ended.signal).toBeNull();
  // It did not finish: 130, as a shell reports a command stopped by Ctrl-C.
  expect(ended.code).toBe(130);
  return { job: job as JobRow, stdout: run.stdout(), stderr: run.stderr() };
}

describe('video jobs across runs', () => {
  it('an interrupted run leaves the job open; the next run collects it without uploading it again', async () => {
    const before = await status();
    const { job, stdout } = await interruptWhileAnalysing();
    expect(job).toMatchObject({ path: clipFile, solution: 'objects' });
    expect(['queued', 'running']).toContain(job.status);
    expect(stdout).toContain('Interrupted: 1 clip still being analysed; the next run picks it up.');
    // The key paid for the clip when its job was created: this run says so.
    expect(stdout).toMatch(new RegExp(`frames spent ${CLIP_COST}$`, 'm'));
    const paid = before.remaining - (await status()).remaining;
    expect(paid).toBe(CLIP_COST);
    expect(await uploads()).toContain(`${job.jobId}.upload`);

    const listed = await runCli(['jobs'], env);
    expect(listed.stdout).toMatch(
      new RegExp(`^${job.jobId}  (queued|running)  \\d+ %  ${clipFile}$`, 'm'),
    );

    const plan = await cliJson<{ toLabel: { clips: number; frames: number } }>(
      ['plan', clipDir, '--service', serve.url],
      env,
    );
    // Already paid for: the plan prices it at nothing.
    expect(plan.toLabel).toMatchObject({ clips: 1, frames: 0 });

    const next = await runCli(['label', clipDir, '--service', serve.url, '--yes', '--json'], env, {
      timeoutMs: 60_000,
    });
    expect(next.code, next.stderr).toBe(0);
    expect(lastJson<SummaryJson>(next.stdout)).toMatchObject({
      labelled: 1,
      failed: [],
      // Collecting a paid job costs nothing more: this run's frames are the key's (none).
      framesSpent: 0,
      exitCode: 0,
    });
    // One job, one upload, one charge.
    expect((await status()).remaining).toBe(before.remaining - CLIP_COST);
    expect((await uploads()).filter((u) => u !== `${job.jobId}.upload`)).toEqual([]);
    expect((await runCli(['jobs'], env)).stdout).toBe('No open video jobs.\n');

    const csv = join(t.dir, 'boxes.csv');
    expect((await runCli(['export', '--format', 'csv', '--out', csv], env)).code).toBe(0);
    const rows = await readCsv(csv);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.path === clipFile && r.frame !== undefined)).toBe(true);
  }, 90_000);

  it('jobs --cancel cancels the open job at the service and charges only what was analysed', async () => {
    const before = await status();
    const { job } = await interruptWhileAnalysing();

    const cancel = await runCli(['jobs', '--cancel', job.jobId], env);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toBe(`Cancelled ${job.jobId}.\n`);
    expect((await runCli(['jobs'], env)).stdout).toBe('No open video jobs.\n');

    const res = await fetch(`${serve.url}/jobs/${job.jobId}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(((await res.json()) as { status: string }).status).toBe('cancelled');
    // The frames not analysed are refunded.
    const spent = before.remaining - (await status()).remaining;
    expect(spent).toBeGreaterThanOrEqual(0);
    expect(spent).toBeLessThan(CLIP_COST);
    expect(spent % 2).toBe(0);
  }, 60_000);

  it('jobs --cancel refuses a --service other than the one the job was sent to', async () => {
    const { job } = await interruptWhileAnalysing();
    const other = 'http://127.0.0.1:9';
    const wrong = await runCli(['jobs', '--cancel', job.jobId, '--service', other], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`was sent to ${serve.url}`);
    // Still open, still listed; then cancelled where it lives.
    expect((await cliJson<JobRow[]>(['jobs'], env)).map((j) => j.jobId)).toEqual([job.jobId]);
    expect((await runCli(['jobs', '--cancel', job.jobId], env)).code).toBe(0);
  }, 60_000);
});
