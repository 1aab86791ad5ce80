/** A plain keep-alive HTTP client that sends the same multipart request at a fixed concurrency. */
import { Agent, request } from 'node:http';

export interface MultipartRequest {
  body: Buffer;
  contentType: string;
}

export function multipartBody(
  fields: Record<string, string>,
  file: { name: string; type: string; bytes: Buffer },
): MultipartRequest {
  const boundary = `----bench${Date.now().toString(16)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  statuses: Record<number, number>;
  /** Parsed JSON answers when `keepBodies` was set. */
  bodies: unknown[];
}

export async function load(options: {
  url: string;
  path: string;
  token?: string;
  payload: MultipartRequest;
  concurrency: number;
  requests: number;
  keepBodies?: boolean;
}): Promise<LoadResult> {
  const target = new URL(options.path, options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const statuses: Record<number, number> = {};
  const bodies: unknown[] = [];
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            'Content-Type': options.payload.contentType,
            'Content-Length': options.payload.body.length,
            ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            if (options.keepBodies) bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(options.payload.body);
    });
  const worker = async () => {
    while (sent < options.requests) {
      sent++;
      await one();
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return {
    requests: options.requests,
    seconds,
    perSecond: options.requests / seconds,
    statuses,
    bodies,
  };
}
