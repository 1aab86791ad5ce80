/** Real models: start to ready, images per second at the published concurrency, and the engine's busy share. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { packageRoot } from '../electron/node-lib/app-paths.js';
import { realMediaDir } from '../test/support/real-media.js';
import { startChild, type ChildServer } from './child-server.js';
import { load, multipartBody } from './load-client.js';
import { fmt, printFigures, type Figure } from './report.js';

export const BENCH_KEY = 'ldk_bench_key_0123456789';

export async function startModelsService(
  data: string,
): Promise<{ server: ChildServer; readyMs: number; listenMs: number }> {
  const t0 = performance.now();
  const server = await startChild(join(packageRoot(), 'bin/labeldesk.js'), [
    'serve',
    '--port',
    '0',
    '--data',
    data,
    '--key',
    `${BENCH_KEY}:1000000000`,
    '--hour-frames',
    '1000000000',
  ]);
  const listenMs = performance.now() - t0;
  for (;;) {
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { ai: string };
    if (health.ai === 'ready') break;
    if (health.ai === 'failed') throw new Error('models failed to load');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { server, readyMs: performance.now() - t0, listenMs };
}

export async function benchModelThroughput(): Promise<void> {
  const data = await mkdtemp(join(tmpdir(), 'labeldesk-bench-'));
  const media = await realMediaDir();
  const { server, readyMs, listenMs } = await startModelsService(data);
  try {
    const bytes = await sharp(await readFile(join(media, 'messi5.jpg')))
      .resize(512, 512, { fit: 'fill' })
      .jpeg()
      .toBuffer();
    const catalog = (await (await fetch(`${server.url}/catalog`)).json()) as {
      limits: { maxConcurrentRequests: number };
    };
    const concurrency = catalog.limits.maxConcurrentRequests;
    const figures: Figure[] = [
      { name: 'start to listening', value: `${fmt(listenMs, 0)} ms` },
      { name: 'start to ready (models loaded)', value: `${fmt(readyMs, 0)} ms` },
    ];
    const workers = Math.min(availableParallelism(), 4);
    for (const solution of ['objects', 'face', 'hand', 'body']) {
      const payload = multipartBody(
        { solution },
        { name: 'messi512.jpg', type: 'image/jpeg', bytes },
      );
      const common = {
        url: server.url,
        path: '/infer/image',
        token: BENCH_KEY,
        payload,
        concurrency,
      };
      await load({ ...common, requests: 8 });
      const r = await load({
        ...common,
        requests: solution === 'objects' ? 60 : 120,
        keepBodies: true,
      });
      const stats = r.bodies.map(
        (b) => (b as { stats: { inferenceMs: number; totalMs: number } }).stats,
      );
      const inModel = stats.reduce((s, x) => s + x.inferenceMs, 0);
      const busy = inModel / (r.seconds * 1000 * workers);
      figures.push({
        name: `${solution}: 512×512 images/s at concurrency ${concurrency} (${workers} workers)`,
        value: `${fmt(r.perSecond, 2)} img/s, ${fmt(inModel / stats.length, 0)} ms in model per image, wall time inside the model ${fmt(busy * 100)} %`,
        ...(solution === 'objects' ? { goal: '≥ 90 % inside the model', met: busy >= 0.9 } : {}),
      });
    }
    printFigures('Real models (images)', figures);
  } finally {
    await server.stop();
    await rm(data, { recursive: true, force: true });
  }
}
