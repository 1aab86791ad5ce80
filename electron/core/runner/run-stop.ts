/** How a run waits and why it stops: abortable sleeps and the sentences for each stop. */
export type StopReason = 'key' | 'hour' | 'run-budget' | 'hour-budget';

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function stopMessage(reason: StopReason): string {
  switch (reason) {
    case 'key':
      return 'The key has no frames left for this file.';
    case 'hour':
      return "This hour's frames are used up; it can go on after the hour.";
    case 'run-budget':
      return 'The budget for this run is spent.';
    case 'hour-budget':
      return 'The hourly budget is spent.';
  }
}
