/**
 * Commands that only read never analyse. A clip's job on the embedded service (real models) is
 * interrupted part-way; then `plan`, `status` and `jobs --cancel` run on the same library. Before,
 * each of them started the embedded service with the stand-in engine, which resumed the stored
 * job and stored its grid boxes as real, charged. Now the job does not move by a frame, nothing is
 * stored as a result, and the cancel charges only the frames the real models analysed.
 */
import Database from 'better-sqlite3';
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, cliHome, cliJson, runCli, startCli, until } from '../../support/cli-run.js';
import { queryLibrary } from '../../support/crash-cli.js';
import { clip } from '../../support/synth-media.js';

const KEY = 'ldk_read_only_key_0001';
const FRAME_COST = 2; // objects, per sampled frame

interface ServiceJob {
  id: string;
  status: string;
  frames_done: number;
  stored_frames: number;
}

let t: { home: string; dir: string; remove: () => Promise<void> };
let clips: string;
let big: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await cliHome();
  clips = join(t.dir, 'clips');
  await mkdir(clips);
  // 20 s at 5 sampled fps: 100 frames, far more than the real models get through before Ctrl-C.
  await clip(clips, 'street.mp4', 20, '320x240', 10);
  // A big new file to hash keeps `plan` busy for a second or more: long enough, before, for the
  // service it started to resume the job and finish it with the stand-in. Sparse: no disk used.
  big = join(t.dir, 'big');
  await mkdir(big);
  await writeFile(join(big, 'huge.mp4'), '');
  await truncate(join(big, 'huge.mp4'), 256 * 1024 * 1024);
  // The embedded service takes LABELDESK_API_KEY as its key, so every command uses the same one.
  env = cliEnv(t.home, { LABELDESK_API_KEY: KEY });
});
afterAll(() => t?.remove());

function serviceJobs(): ServiceJob[] {
  let db: Database.Database;
  try {
    db = new Database(join(t.home, 'service', 'service.sqlite'), {
      readonly: true,
      fileMustExist: true,
    });
  } catch {
    return [];
  }
  try {
    db.pragma('busy_timeout = 2000');
    return db
      .prepare(
        `SELECT id, status, frames_done,
           (SELECT count(*) FROM job_frames f WHERE f.job_id = jobs.id) AS stored_frames
         FROM jobs`,
      )
      .all() as ServiceJob[];
  } catch (err) {
    if (/no such table/.test(String(err))) return [];
    throw err;
  } finally {
    db.close();
  }
}

const libraryDetections = () =>
  queryLibrary<{ n: number }>(t.home, 'SELECT count(*) AS n FROM detections')[0]?.n ?? 0;
const libraryResults = () =>
  queryLibrary<{ n: number }>(t.home, 'SELECT count(*) AS n FROM results')[0]?.n ?? 0;

describe('plan, status and jobs --cancel after an interrupted real clip job', () => {
  it('do not advance the job, store no stand-in boxes, and the cancel charges what was analysed', async () => {
    const run = startCli(['label', clips, '--yes', '--json'], env);
    await until(
      'the real models to analyse a few frames',
      () => (serviceJobs()[0]?.frames_done ?? 0) >= 2,
      120_000,
    );
    run.child.kill('SIGINT');
    const ended = await run.exited;
    expect(ended.code, run.stderr()).toBe(130);

    const [stopped] = serviceJobs();
    expect(stopped).toBeDefined();
    const job = stopped as ServiceJob;
    expect(['queued', 'running']).toContain(job.status);
    expect(job.frames_done).toBeLessThan(100);
    expect(libraryResults()).toBe(0);

    const plan = await cliJson<{ toLabel: { clips: number; frames: number }; refused: unknown[] }>(
      ['plan', clips, big],
      env,
    );
    // The clip is already paid for; the big file is no clip at all.
    expect(plan.toLabel).toMatchObject({ clips: 1, frames: 0 });
    expect(plan.refused).toHaveLength(1);
    const status = await cliJson<{ ai: string; remaining: number }>(['status'], env);
    expect(status.ai).toBe('off'); // no engine was loaded to answer it
    expect((await runCli(['jobs'], env)).stdout).toContain(job.id);

    // Nothing moved: not a frame analysed, nothing stored as a result.
    expect(serviceJobs()).toEqual([job]);
    expect(libraryResults()).toBe(0);
    expect(libraryDetections()).toBe(0);

    const cancel = await runCli(['jobs', '--cancel', job.id], env);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toBe(`Cancelled ${job.id}.\n`);
    expect(serviceJobs()).toEqual([{ ...job, status: 'cancelled' }]);
    expect(libraryDetections()).toBe(0);
    const [sub] = queryLibrary<{ state: string; frames_spent: number }>(
      t.home,
      'SELECT state, frames_spent FROM submissions',
    );
    expect(sub).toEqual({ state: 'cancelled', frames_spent: job.frames_done * FRAME_COST });
    // While open, the job held its whole clip's frames; cancelled, it paid for the analysed ones only.
    expect(status.remaining).toBe(100_000 - 100 * FRAME_COST);
    const after = await cliJson<{ remaining: number }>(['status'], env);
    expect(after.remaining).toBe(100_000 - job.frames_done * FRAME_COST);
  }, 240_000);
});
