/**
 * `{code, message}` of a non-2xx answer in any of the forms services use:
 * `{"error":{"code","message"}}`, `{"error":"…"}`, `{"message":"…"}`, `{"detail":"…"}` or plain
 * text (a proxy's HTML 502). The person sees the service's own words; a code the service did not
 * give is `http_<status>`, so the status-based decisions hold.
 */
import type { JobError } from './adapter-types.js';
import { isObject, stringOf } from './read-values.js';

export function readErrorBody(status: number, text: string): JobError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const excerpt = text.trim().slice(0, 200);
    return {
      code: `http_${status}`,
      message: excerpt ? `${excerpt} (HTTP ${status})` : `The service answered HTTP ${status}.`,
    };
  }
  const fallbackCode = `http_${status}`;
  if (isObject(body)) {
    const e = body.error;
    if (isObject(e)) {
      const code = stringOf(e.code) ?? fallbackCode;
      const message = stringOf(e.message) ?? stringOf(e.detail);
      // Our own form: the message as the service wrote it.
      if (message !== null) return { code, message };
    }
    const code = stringOf(body.code) ?? (isObject(e) ? stringOf(e.code) : null) ?? fallbackCode;
    const words =
      (typeof e === 'string' ? e : null) ??
      stringOf(body.message) ??
      wordsOf(body.detail) ??
      stringOf(body.error_description) ??
      stringOf(body.title);
    if (words) return { code, message: `${words} (HTTP ${status})` };
  }
  const excerpt = text.trim().slice(0, 200);
  return { code: fallbackCode, message: `${excerpt} (HTTP ${status})` };
}

/** FastAPI's `detail` may be a string or a list of `{msg}` objects. */
function wordsOf(detail: unknown): string | null {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((d) => (isObject(d) ? stringOf(d.msg) : stringOf(d))).filter(Boolean);
    return parts.length > 0 ? parts.join('; ') : null;
  }
  return null;
}
