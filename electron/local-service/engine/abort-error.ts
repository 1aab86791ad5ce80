/** The error detect() rejects with when its AbortSignal fires (name 'AbortError', like fetch). */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error('Detection aborted');
  err.name = 'AbortError';
  return err;
}
