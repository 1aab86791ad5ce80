/** Video: analysed frames per second on vtest.avi at the published sample rate, and decode's share. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysedSize } from '../electron/local-service/media/analysed-size.js';
import { decodeVideoFrames } from '../electron/local-service/media/video-frames.js';
import { probeVideo } from '../electron/local-service/media/video-probe.js';
import { realMediaDir } from '../test/support/real-media.js';
import { BENCH_KEY, startModelsService } from './model-throughput.js';
import { fmt, printFigures } from './report.js';

interface Job {
  status: string;
  pollIntervalMs: number;
  framesAnalysed: number;
  result?: { frames: unknown[]; sampledFps: number };
}

export async function benchVideo(): Promise<void> {
  const media = await realMediaDir();
  const file = join(media, 'vtest.avi');
  const data = await mkdtemp(join(tmpdir(), 'labeldesk-bench-'));
  const { server } = await startModelsService(data);
  try {
    const catalog = (await (await fetch(`${server.url}/catalog`)).json()) as {
      limits: { videoSampleFps: number; maxAnalysedSide: number };
    };
    const form = new FormData();
    form.append('solution', 'objects');
    form.append('file', new Blob([new Uint8Array(await readFile(file))]), 'vtest.avi');
    const auth = { authorization: `Bearer ${BENCH_KEY}` };
    const t0 = performance.now();
    const submitted = (await (
      await fetch(`${server.url}/infer/video`, { method: 'POST', body: form, headers: auth })
    ).json()) as {
      jobId: string;
    };
    let job: Job;
    for (;;) {
      job = (await (
        await fetch(`${server.url}/jobs/${submitted.jobId}`, { headers: auth })
      ).json()) as Job;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) break;
      await new Promise((r) => setTimeout(r, job.pollIntervalMs));
    }
    const jobSeconds = (performance.now() - t0) / 1000;
    if (job.status !== 'succeeded') throw new Error(`video job ${job.status}`);
    const frames = job.result?.frames.length ?? 0;

    // Decoding alone, with the same sampling and scaling the job used.
    const info = await probeVideo(file);
    const size = analysedSize(info.width, info.height, catalog.limits.maxAnalysedSide);
    const d0 = performance.now();
    let decoded = 0;
    for await (const _frame of decodeVideoFrames(file, {
      sampleFps: catalog.limits.videoSampleFps,
      maxAnalysedSide: catalog.limits.maxAnalysedSide,
      info,
    })) {
      decoded++;
    }
    const decodeSeconds = (performance.now() - d0) / 1000;
    printFigures(
      `Video (vtest.avi, ${fmt(info.durationMs / 1000, 0)} s, ${info.width}×${info.height}, objects, sampled at ${catalog.limits.videoSampleFps} fps, analysed at ${size.width}×${size.height})`,
      [
        { name: 'analysed frames', value: String(frames) },
        {
          name: 'analysed frames per second (upload to result)',
          value: `${fmt(frames / jobSeconds, 2)} frames/s over ${fmt(jobSeconds)} s`,
        },
        {
          name: 'decode alone',
          value: `${decoded} frames in ${fmt(decodeSeconds, 2)} s (${fmt(decoded / decodeSeconds, 0)} frames/s)`,
        },
        {
          name: "decode's share of the job's wall time",
          value: `${fmt((decodeSeconds / jobSeconds) * 100)} % (overlapped with detection)`,
        },
      ],
    );
  } finally {
    await server.stop();
    await rm(data, { recursive: true, force: true });
  }
}
