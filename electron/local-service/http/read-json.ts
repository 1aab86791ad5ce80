import type { IncomingMessage } from 'node:http';
import { badRequest, tooLarge } from './api-error.js';

/** Reads a small JSON object body; an empty body reads as {}. */
export async function readJsonObject(
  req: IncomingMessage,
  maxBytes = 16 * 1024,
): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes)
      throw tooLarge('body_too_large', `JSON bodies may be at most ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
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
