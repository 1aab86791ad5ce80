/** Every failure shown to the user is a code and a sentence. */

export interface CodedError {
  code: string;
  message: string;
}

export function codedError(err: unknown): CodedError {
  if (typeof err === 'object' && err !== null) {
    const { code, message } = err as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && typeof message === 'string') return { code, message };
    if (typeof message === 'string') return { code: 'internal_error', message };
  }
  return { code: 'internal_error', message: String(err) };
}
