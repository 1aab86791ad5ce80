/**
 * kill -9 in the middle of a clip's job: of `labeldesk label` (the next run resumes the stored
 * job by polling, never uploading the clip again), and of the service (the job resumes there and
 * the client's polls ride out the restart).
 */
import Database from 'better-sqlite3';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertFreshBuild,
  integrityOf,
  keyStatus,
  queryLibrary,
  runCli,
  startCli,
  waitFor,
} from '../../support/crash-cli.js';
import { startFaultProxy } from '../../support/fault-proxy.js';
import { runServe } from '../../support/run-serve.js';
import { clip } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';

const GRANT = 10_000;
const CLIP_SECONDS = 8;
const FRAME_COST = 2; // objects, per sampled frame
const SAMPLE_FPS = 5; // the embedded service's catalog
const CLIP_FRAMES = CLIP_SECONDS * SAMPLE_FPS;

let tmp: { dir: string; remove: () => Promise<void> };
let clipBytes: string;

beforeAll(async () => {
  assertFreshBuild(['electron/core/runner', 'electron/core/store', 'electron/core/service']);
  tmp = await tempDir('labeldesk-crash-video-');
  await mkdir(join(tmp.dir, 'clips'));
  clipBytes = await clip(join(tmp.dir, 'clips'), 'walk.mp4', CLIP_SECONDS);
});
afterAll(() => tmp?.remove());

interface Submission {
  state: string;
  job_id: string | null;
  frames_spent: number | null;
}

async function mediaFolder(name: string): Promise<string> {
  const dir = join(tmp.dir, name);
  await mkdir(dir);
  const { copyFile } = await import('node:fs/promises');
  await copyFile(clipBytes, join(dir, 'walk.mp4'));
  return dir;
}

function serviceJobs(dataDir: string): { id: string; status: string; frames_done: number }[] {
  const db = new Database(join(dataDir, 'service.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT id, status, frames_done FROM jobs').all() as {
      id: string;
      status: string;
      frames_done: number;
    }[];
  } finally {
    db.close();
  }
}

function checkLibrary(home: string): void {
  expect(integrityOf(home)).toBe('ok');
  const subs = queryLibrary<Submission>(
    home,
    'SELECT state, job_id, frames_spent FROM submissions',
  );
  expect(subs).toHaveLength(1);
  expect(subs[0]).toMatchObject({ state: 'done', frames_spent: CLIP_FRAMES * FRAME_COST });
  const result = queryLibrary<{ frames: number }>(
    home,
    'SELECT count(DISTINCT d.frame_index) AS frames FROM results r JOIN detections d ON d.result_id = r.id',
  );
  expect(result[0]?.frames).toBeGreaterThan(0);
  const ledger = queryLibrary<{ frames: number }>(
    home,
    'SELECT coalesce(sum(frames), 0) AS frames FROM frames_ledger',
  );
  expect(ledger[0]?.frames).toBe(CLIP_FRAMES * FRAME_COST);
}

describe('a clip job under kill -9', () => {
  it('of the label process: the next run resumes the stored job by polling, without a second upload', async () => {
    const key = 'ldk_crash_video_key_001';
    const dataDir = join(tmp.dir, 'service-a');
    const serve = await runServe([
      '--data',
      dataDir,
      '--engine',
      'null',
      '--latency-ms',
      '300',
      '--key',
      `${key}:${GRANT}`,
    ]);
    const proxy = await startFaultProxy(serve.url);
    const home = join(tmp.dir, 'home-a');
    const env = { LABELDESK_HOME: home, LABELDESK_API_KEY: key };
    const args = ['label', await mediaFolder('media-a'), '--service', proxy.url, '--yes', '--json'];
    try {
      const first = startCli(args, env);
      // The job id is stored the moment the 202 arrives: kill as soon as it is there.
      let jobId: string | null = null;
      await waitFor('the stored job id', () => {
        jobId = queryLibrary<Submission>(home, 'SELECT job_id FROM submissions')[0]?.job_id ?? null;
        return jobId !== null;
      });
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(integrityOf(home)).toBe('ok');
      const [job] = serviceJobs(dataDir);
      expect(job?.id).toBe(jobId);
      expect(['queued', 'running']).toContain(job?.status); // still going when the client died

      const pollsBefore = proxy.forwarded('GET', `/jobs/${jobId}`);
      const second = await runCli(args, env);
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout.trim())).toMatchObject({
        labelled: 1,
        failed: [],
        uncertain: [],
        // The key paid for the clip when its job was created (the killed run, whose ledger entry
        // was stored with the job id): collecting it costs nothing more, and this run says so.
        framesSpent: 0,
      });
      // Resumed by polling the same job; the clip went up once.
      expect(proxy.forwarded('POST', '/infer/video')).toBe(1);
      expect(proxy.requests.filter((r) => r.path === '/infer/video')).toHaveLength(1);
      expect(proxy.forwarded('GET', `/jobs/${jobId}`)).toBeGreaterThan(pollsBefore);
      expect(serviceJobs(dataDir)).toEqual([
        expect.objectContaining({ id: jobId, status: 'succeeded', frames_done: CLIP_FRAMES }),
      ]);
      checkLibrary(home);
      expect(GRANT - (await keyStatus(serve.url, key)).remaining).toBe(CLIP_FRAMES * FRAME_COST);
    } finally {
      await proxy.close();
      await serve.stop();
    }
  });

  it('of the service: the job resumes there and the running client polls through the restart', async () => {
    const key = 'ldk_crash_video_key_002';
    const dataDir = join(tmp.dir, 'service-b');
    const serveArgs = [
      '--data',
      dataDir,
      '--engine',
      'null',
      '--latency-ms',
      '300',
      '--key',
      `${key}:${GRANT}`,
    ];
    let serve = await runServe(serveArgs);
    const port = new URL(serve.url).port;
    const home = join(tmp.dir, 'home-b');
    const env = { LABELDESK_HOME: home, LABELDESK_API_KEY: key };
    const label = startCli(
      ['label', await mediaFolder('media-b'), '--service', serve.url, '--yes', '--json'],
      env,
    );
    try {
      // Kill the service once the job has analysed some frames and the client has its id.
      await waitFor(
        'a job part-way through',
        () =>
          (serviceJobs(dataDir)[0]?.frames_done ?? 0) > 0 &&
          queryLibrary<Submission>(home, 'SELECT job_id FROM submissions')[0]?.job_id != null,
      );
      serve.child.kill('SIGKILL');
      await new Promise((r) => serve.child.once('exit', r));
      const doneAtKill = serviceJobs(dataDir)[0]?.frames_done ?? 0;
      expect(doneAtKill).toBeLessThan(CLIP_FRAMES);
      // Down for longer than the client's own retries of one poll (≈2 s at most) last.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(label.child.exitCode).toBeNull(); // still waiting for its job
      serve = await runServe([...serveArgs, '--port', port]);

      const exit = await label.exited;
      expect(exit.code, label.stderr()).toBe(0);
      expect(JSON.parse(label.stdout().trim())).toMatchObject({
        labelled: 1,
        failed: [],
        interrupted: false,
        framesSpent: CLIP_FRAMES * FRAME_COST,
      });
      // One upload, one job, finished after the restart and charged once.
      expect(serviceJobs(dataDir)).toEqual([
        expect.objectContaining({ status: 'succeeded', frames_done: CLIP_FRAMES }),
      ]);
      checkLibrary(home);
      expect(GRANT - (await keyStatus(serve.url, key)).remaining).toBe(CLIP_FRAMES * FRAME_COST);
    } finally {
      label.child.kill('SIGKILL');
      await serve.stop();
    }
  });
});
