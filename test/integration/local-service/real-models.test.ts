/** The embedded service end to end on real models and OpenCV's real sample media. */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollJob } from '../../support/poll-job.js';
import { realMediaDir } from '../../support/real-media.js';
import { startFixture, type Fixture } from '../../support/service-fixture.js';
import { tempDir } from '../../support/temp-dir.js';

const run = promisify(execFile);
let f: Fixture;
let media: string;
let clips: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  media = await realMediaDir();
  clips = await tempDir('labeldesk-real-clips-');
  f = await startFixture({ engine: 'models' });
  // Before the models are loaded, inference is refused with 503 and a Retry-After; health says loading.
  const early = await f.upload('/infer/image', {
    solution: 'objects',
    file: await photo('messi5.jpg'),
    filename: 'messi5.jpg',
  });
  const health = await f.call('/healthz');
  if (health.body.ai === 'loading') {
    expect(early.status).toBe(503);
    expect(early.body.error.code).toBe('engine_loading');
    expect(early.headers.get('retry-after')).toBeTruthy();
  }
  await f.service.engine.whenReady();
}, 180_000);
afterAll(async () => {
  await f.stop();
  await clips.remove();
});

async function photo(name: string): Promise<Blob> {
  return new Blob([new Uint8Array(await readFile(join(media, name)))]);
}

async function detect(name: string, solution: string) {
  const res = await f.upload('/infer/image', { solution, file: await photo(name), filename: name });
  expect(res.status).toBe(200);
  return res.body as {
    detections: {
      label: string;
      score: number;
      bbox: { x: number; y: number; w: number; h: number };
      bboxPx: { x: number; w: number };
    }[];
    image: { width: number; height: number; analysedWidth: number };
    stats: { inferenceMs: number };
  };
}

describe('real models over HTTP', () => {
  it('objects: a person and a sports ball in messi5.jpg, boxes consistent in both forms', async () => {
    const body = await detect('messi5.jpg', 'objects');
    const labels = body.detections.map((d) => d.label);
    expect(labels).toContain('person');
    expect(labels).toContain('sports ball');
    expect(body.image).toMatchObject({ width: 548, height: 342, analysedWidth: 548 });
    for (const d of body.detections)
      expect(d.bboxPx.x).toBeCloseTo(d.bbox.x * body.image.analysedWidth, 0);
    expect(body.stats.inferenceMs).toBeGreaterThan(10);
  });

  it('objects: people in basketball1.png', async () => {
    const people = (await detect('basketball1.png', 'objects')).detections.filter(
      (d) => d.label === 'person',
    );
    expect(people.length).toBeGreaterThanOrEqual(2);
  });

  it('objects: apples and oranges in fruits.jpg', async () => {
    // What a person sees by default (the library's minimum score, 0.3): the service now answers
    // boxes down to its 0.05 floor, among them an unlikely person on a fruit bowl.
    const labels = (await detect('fruits.jpg', 'objects')).detections
      .filter((d) => d.score >= 0.3)
      .map((d) => d.label);
    expect(labels).toContain('apple');
    expect(labels).toContain('orange');
    expect(labels).not.toContain('person');
  });

  it('objects: keeps boxes down to the floor it publishes, below the 0.3 it used to drop at', async () => {
    const catalog = (await f.call('/catalog')).body as {
      solutions: { id: string; scoreFloor: number }[];
    };
    const floor = catalog.solutions.find((s) => s.id === 'objects')?.scoreFloor;
    expect(floor).toBe(0.05);
    const scores = (await detect('basketball1.png', 'objects')).detections.map((d) => d.score);
    expect(scores.some((s) => s < 0.3)).toBe(true);
    expect(Math.min(...scores)).toBeGreaterThanOrEqual(0.05);
  });

  it('face and body: one face and one person on messi5.jpg', async () => {
    expect((await detect('messi5.jpg', 'face')).detections.map((d) => d.label)).toEqual(['face']);
    expect((await detect('messi5.jpg', 'body')).detections.map((d) => d.label)).toEqual(['person']);
  });

  it('answers health and key within milliseconds while the models are busy', async () => {
    // Proven by order, not by a stopwatch: every health answer arrives while the four CenterNet
    // runs (seconds of work on two cores) are still going.
    let busyDone = false;
    const busy = Promise.all([1, 2, 3, 4].map(async () => detect('messi5.jpg', 'objects'))).then(
      () => (busyDone = true),
    );
    await new Promise((r) => setTimeout(r, 50));
    const answeredWhileBusy: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      expect((await f.call('/healthz')).status).toBe(200);
      answeredWhileBusy.push(!busyDone);
    }
    await busy;
    expect(answeredWhileBusy).toEqual([true, true, true, true, true]);
  });

  it('pedestrians through a video job on vtest.avi', async () => {
    // The first 8 s of the clip keeps CI time reasonable; the whole clip is measured by `npm run bench`.
    const clip = join(clips.dir, 'vtest-8s.avi');
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      join(media, 'vtest.avi'),
      '-t',
      '8',
      '-c',
      'copy',
      clip,
    ]);
    const res = await f.upload('/infer/video', {
      solution: 'objects',
      file: new Blob([new Uint8Array(await readFile(clip))]),
      filename: 'vtest.avi',
    });
    expect(res.status).toBe(202);
    const job = await pollJob(f, res.body.jobId, { timeoutMs: 120_000 });
    expect(job.status).toBe('succeeded');
    expect(job.result).toMatchObject({ width: 768, height: 576, sampledFps: 5 });
    expect(job.result.frames.length).toBeGreaterThanOrEqual(39);
    const withPeople = job.result.frames.filter(
      (fr: { detections: { label: string }[] }) =>
        fr.detections.filter((d) => d.label === 'person').length >= 2,
    );
    expect(withPeople.length).toBeGreaterThan(job.result.frames.length * 0.8);
  }, 150_000);
});
