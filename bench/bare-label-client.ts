/**
 * The bare baseline of `labeldesk label --service`: a plain keep-alive client that uploads every
 * file of a folder to POST /infer/image at a fixed concurrency (multipart: `solution`, then
 * `file`), reads each answer to the end and parses it, and exits. No library, no store, no checks.
 *
 *   node build/bench/bare-label-client.js URL KEY CONCURRENCY DIR
 */
import { readdir, readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { multipartBody } from './load-client.js';

const [url = '', key = '', concurrencyArg = '4', dir = ''] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const files = (await readdir(dir)).filter((f) => f.endsWith('.jpg')).sort();
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL('/infer/image', url);
const statuses: Record<number, number> = {};
let boxes = 0;

function upload(name: string, bytes: Buffer): Promise<void> {
  const payload = multipartBody({ solution: 'objects' }, { name, type: 'image/jpeg', bytes });
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': payload.contentType,
          'Content-Length': payload.body.length,
          Authorization: `Bearer ${key}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            detections?: unknown[];
          };
          boxes += body.detections?.length ?? 0;
          resolve();
        });
      },
    );
    req.on('error', reject);
    req.end(payload.body);
  });
}

let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < files.length) {
      const name = files[next++] as string;
      await upload(name, await readFile(join(dir, name)));
    }
  }),
);
agent.destroy();
process.stdout.write(`${JSON.stringify({ files: files.length, statuses, boxes })}\n`);
