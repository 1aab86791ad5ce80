/** Image requests per second: the embedded service (null engine, no latency) against a bare keep-alive server. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { packageRoot } from '../electron/node-lib/app-paths.js';
import { startChild } from './child-server.js';
import { load, multipartBody } from './load-client.js';
import { fmt, printFigures } from './report.js';

const KEY = 'ldk_bench_key_0123456789';

export async function benchServiceOverhead(): Promise<void> {
  const root = packageRoot();
  const data = await mkdtemp(join(tmpdir(), 'labeldesk-bench-'));
  // A small image: this measures what the service adds around the model, not decoding.
  const bytes = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 90, g: 160, b: 30 } },
  })
    .jpeg()
    .toBuffer();
  const payload = multipartBody(
    { solution: 'objects' },
    { name: 'bench.jpg', type: 'image/jpeg', bytes },
  );
  const bare = await startChild(join(root, 'build/bench/bare-server.js'), []);
  const service = await startChild(join(root, 'bin/labeldesk.js'), [
    'serve',
    '--port',
    '0',
    '--data',
    data,
    '--engine',
    'null',
    '--latency-ms',
    '0',
    '--key',
    `${KEY}:1000000000`,
    '--hour-frames',
    '1000000000',
  ]);
  try {
    const catalog = (await (await fetch(`${service.url}/catalog`)).json()) as {
      limits: { maxConcurrentRequests: number };
    };
    const concurrency = catalog.limits.maxConcurrentRequests;
    const requests = 6000;
    const common = { path: '/infer/image', payload, concurrency, requests };
    await load({ ...common, url: bare.url, requests: 500 });
    await load({ ...common, url: service.url, token: KEY, requests: 500 });
    const b = await load({ ...common, url: bare.url });
    const s = await load({ ...common, url: service.url, token: KEY });
    const decode = await rawDecodeRate(bytes, concurrency, 3000);
    const ok = s.statuses[200] ?? 0;
    const ratio = s.perSecond / b.perSecond;
    printFigures(
      `Service overhead (null engine, 0 ms latency, ${concurrency} concurrent, ${requests} requests, 64×64 JPEG)`,
      [
        { name: 'bare keep-alive server', value: `${fmt(b.perSecond, 0)} req/s` },
        { name: 'embedded service', value: `${fmt(s.perSecond, 0)} req/s (${ok} × 200)` },
        {
          name: 'ratio service / bare',
          value: fmt(ratio, 2),
          goal: '≥ 0.5',
          met: ratio >= 0.5 && ok === requests,
        },
        {
          name: 'raw sharp decode of the same file at the same concurrency, no HTTP (the floor of any service that really decodes)',
          value: `${fmt(decode, 0)} decodes/s; service / raw decode = ${fmt(s.perSecond / decode, 2)}`,
        },
      ],
    );
  } finally {
    await Promise.all([bare.stop(), service.stop()]);
    await rm(data, { recursive: true, force: true });
  }
}

/** Decoding alone, as the service does it (orient, flatten, sRGB, raw), with nothing else around it. */
async function rawDecodeRate(bytes: Buffer, concurrency: number, n: number): Promise<number> {
  let i = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i++ < n) {
        await sharp(bytes)
          .autoOrient()
          .flatten({ background: '#ffffff' })
          .toColourspace('srgb')
          .raw()
          .toBuffer();
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}
