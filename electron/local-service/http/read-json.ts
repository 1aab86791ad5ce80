import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest, tooLarge } from './api-error.js';

const MAX_JSON_BYTES = 16 * 1024;
/** A JSON body is small: one that takes longer than this to arrive is refused (slow senders hold sockets). */
const JSON_BODY_TIMEOUT_MS = 10_000;

/**
 * Reads a small JSON object body; an empty body reads as {}. The request stream is never destroyed
 * here: on a refusal the caller's error answer decides what happens to the rest of the body.
 */
export async function readJsonObject(
  req: IncomingMessage,
  maxBytes = MAX_JSON_BYTES,
): Promise<Record<string, unknown>> {
  const text = (await readSmallBody(req, maxBytes)).toString('utf8').trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('malformed_json', 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('malformed_json', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

function readSmallBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooBig = () => tooLarge('body_too_large', `JSON bodies may be at most ${maxBytes} bytes.`);
  if (Number(req.headers['content-length']) > maxBytes) return Promise.reject(tooBig());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err?: ApiError) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onAborted);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish(tooBig());
      else chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onAborted = () =>
      finish(new ApiError(400, 'request_aborted', 'The request was interrupted.'));
    const timer = setTimeout(
      () =>
        finish(
          new ApiError(408, 'request_timeout', 'The request body did not arrive in time.', {
            Connection: 'close',
          }),
        ),
      JSON_BODY_TIMEOUT_MS,
    );
    timer.unref();
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('aborted', onAborted);
    req.once('error', onAborted);
  });
}
