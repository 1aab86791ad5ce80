/**
 * The real detections the tracking bench runs on: the whole of vtest.avi (OpenCV's pedestrians)
 * labelled by the embedded service's `objects` solution through a video job, as the app labels a
 * clip. The job takes minutes on a shared machine, so its result is kept in the git-ignored
 * `.cache/bench` and reused while vtest.avi is unchanged (its size is part of the file name).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../electron/node-lib/app-paths.js';
import { realMediaDir } from '../../test/support/real-media.js';
import { BENCH_KEY, startModelsService } from '../model-throughput.js';

export interface ClipDetection {
  frameIndex: number;
  label: string;
  score: number;
  bbox: { x: number; y: number; w: number; h: number };
}

interface JobAnswer {
  status: string;
  pollIntervalMs: number;
  result?: {
    sampledFps?: number;
    frames: { index: number; detections: Omit<ClipDetection, 'frameIndex'>[] }[];
  };
}

export async function vtestDetections(): Promise<{
  detections: ClipDetection[];
  frames: number;
  /** The rate the service analysed the clip at: the app tunes the tracker to it, as must the bench. */
  sampledFps: number | undefined;
}> {
  const file = join(await realMediaDir(), 'vtest.avi');
  const cacheDir = join(packageRoot(), '.cache', 'bench');
  const cached = join(cacheDir, `vtest-objects-${(await stat(file)).size}.json`);
  if (!existsSync(cached)) {
    await mkdir(cacheDir, { recursive: true });
    const answer = await labelClip(file);
    await writeFile(`${cached}.tmp`, JSON.stringify(answer));
    await rename(`${cached}.tmp`, cached);
  }
  const result = JSON.parse(await readFile(cached, 'utf8')) as JobAnswer['result'];
  const frames = result?.frames ?? [];
  return {
    frames: frames.length,
    sampledFps: result?.sampledFps,
    detections: frames.flatMap((f) =>
      f.detections.map((d) => ({
        frameIndex: f.index,
        label: d.label,
        score: d.score,
        bbox: d.bbox,
      })),
    ),
  };
}

async function labelClip(file: string): Promise<JobAnswer['result']> {
  const data = await mkdtemp(join(tmpdir(), 'labeldesk-bench-'));
  const { server } = await startModelsService(data);
  try {
    const auth = { authorization: `Bearer ${BENCH_KEY}` };
    const form = new FormData();
    form.append('solution', 'objects');
    form.append('file', new Blob([new Uint8Array(await readFile(file))]), 'vtest.avi');
    const res = await fetch(`${server.url}/infer/video`, {
      method: 'POST',
      body: form,
      headers: auth,
    });
    // A refused upload (no job) or an odd poll ends the section with the service's words, never
    // a poll loop without end (it once spun on /jobs/undefined).
    if (res.status !== 202) throw new Error(`vtest.avi upload: ${res.status} ${await res.text()}`);
    const { jobId } = (await res.json()) as { jobId: string };
    const deadline = Date.now() + 30 * 60_000;
    while (Date.now() < deadline) {
      const poll = await fetch(`${server.url}/jobs/${jobId}`, { headers: auth });
      if (!poll.ok) throw new Error(`vtest.avi poll: ${poll.status} ${await poll.text()}`);
      const job = (await poll.json()) as JobAnswer;
      if (job.status === 'succeeded') return job.result;
      if (['failed', 'cancelled'].includes(job.status))
        throw new Error(`vtest.avi job ${job.status}`);
      await new Promise((r) =>
        setTimeout(r, Math.min(Math.max(job.pollIntervalMs ?? 0, 250), 5000)),
      );
    }
    throw new Error('vtest.avi: the embedded service did not finish the clip in 30 minutes');
  } finally {
    await server.stop();
    await rm(data, { recursive: true, force: true });
  }
}
