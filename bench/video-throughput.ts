/**
 * Video: analysed frames per second on vtest.avi at the published sample rate, through a job of
 * the service, against the bare baseline measured in the same run: raw ffmpeg (same sampling and
 * scaling) piping frames straight into the same engine, decode and detection running
 * concurrently with as many frames in flight as the service allows. Raw decode alone is shown too.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysedSize } from '../electron/local-service/media/analysed-size.js';
import { probeVideo } from '../electron/local-service/media/video-probe.js';
import { realMediaDir } from '../test/support/real-media.js';
import { rawFrames, startBareEngine, WORKERS } from './bare-models.js';
import { BENCH_KEY, startModelsService } from './model-throughput.js';
import { cpuSecondsOf } from './proc-cpu.js';
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
    const servicePid = server.child.pid as number;
    const serviceCpu0 = cpuSecondsOf(servicePid);
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
    const serviceCpu = cpuSecondsOf(servicePid) - serviceCpu0;
    if (job.status !== 'succeeded') throw new Error(`video job ${job.status}`);
    const frames = job.result?.frames.length ?? 0;

    // The bare baseline: raw ffmpeg into the same engine, with the same sampling and scaling.
    const info = await probeVideo(file);
    const size = analysedSize(info.width, info.height, catalog.limits.maxAnalysedSide);
    const clip = { file, sampleFps: catalog.limits.videoSampleFps, ...size };
    const engine = await startBareEngine();
    let bare: { frames: number; seconds: number };
    let bareCpu = NaN;
    try {
      const bareCpu0 = cpuSecondsOf('self');
      bare = await rawFrames(clip, (frame) => engine.detect('objects', frame), WORKERS);
      bareCpu = cpuSecondsOf('self') - bareCpu0;
    } finally {
      await engine.close();
    }
    const decode = await rawFrames(clip, () => undefined);
    printFigures(
      `Video (vtest.avi, ${fmt(info.durationMs / 1000, 0)} s, ${info.width}×${info.height}, objects, sampled at ${catalog.limits.videoSampleFps} fps, analysed at ${size.width}×${size.height})`,
      [
        { name: 'analysed frames', value: String(frames) },
        {
          name: 'analysed frames per second (upload to result)',
          value: `${fmt(frames / jobSeconds, 2)} frames/s over ${fmt(jobSeconds)} s; service process CPU ${fmt(serviceCpu, 1)} s (${fmt((serviceCpu / frames) * 1000, 0)} ms per frame)`,
        },
        {
          name: `bare: raw ffmpeg into the engine (${WORKERS} workers, ${WORKERS} frames in flight)`,
          value: `${bare.frames} frames in ${fmt(bare.seconds, 2)} s (${fmt(bare.frames / bare.seconds, 2)} frames/s); CPU ${fmt(bareCpu, 1)} s (${fmt((bareCpu / bare.frames) * 1000, 0)} ms per frame)`,
        },
        {
          name: 'service ÷ bare',
          value: fmt(frames / jobSeconds / (bare.frames / bare.seconds), 2),
          goal: '≥ 0.9',
          met: frames / jobSeconds / (bare.frames / bare.seconds) >= 0.9,
        },
        {
          name: 'service ÷ bare, by CPU per frame (steadier on a loaded machine)',
          value: fmt(bareCpu / bare.frames / (serviceCpu / frames), 2),
        },
        {
          name: 'raw ffmpeg decode alone',
          value: `${decode.frames} frames in ${fmt(decode.seconds, 2)} s (${fmt(decode.frames / decode.seconds, 0)} frames/s, ${fmt((decode.seconds / bare.seconds) * 100)} % of the bare run)`,
        },
      ],
    );
  } finally {
    await server.stop();
    await rm(data, { recursive: true, force: true });
  }
}
