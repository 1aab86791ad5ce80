/**
 * Sends a file over node:http with Range support (206 / 416), so clips can seek. Only files the
 * application resolved by library id, or the built renderer, ever reach this.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  planRangeAnswer,
  readSpan,
  type ServedFile,
  servedSize,
} from '../../node-lib/range-request.js';

export async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: ServedFile,
  headers: Record<string, string> = {},
): Promise<void> {
  // The size is read now: the library's record may be older than the file.
  const size = await servedSize(file);
  if (size === undefined) {
    await file.handle?.close();
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    return;
  }
  const answer = planRangeAnswer(req.headers.range, size, file.contentType);
  res.writeHead(answer.status, { ...answer.headers, ...headers });
  const span = answer.body;
  if (req.method === 'HEAD' || !span || span.end < span.start) {
    await file.handle?.close();
    res.end();
    return;
  }
  const stream = readSpan(file, span);
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}
