/** How a run waits and why it stops: abortable sleeps and the sentences for each stop. */
import { timerDelay } from '../service/poll-interval.js';

/** `service-wait`: the service asked for a wait longer than the run holds (RunSummary.serviceWait). */
export type StopReason = 'key' | 'hour' | 'run-budget' | 'hour-budget' | 'service-wait';

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
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
    case 'service-wait':
      return 'The service asked to wait longer than this run waits; run again later.';
  }
}

/** A wait for people: "800 ms", "45 s", "12 min", "3.5 h", "11,574 days", "31.7 years". */
export function waitText(ms: number): string {
  if (!Number.isFinite(ms)) return 'forever';
  const s = ms / 1000;
  if (s < 1) return `${Math.round(ms)} ms`;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 2 * 86_400) return `${(s / 3600).toFixed(1)} h`;
  if (s < 365 * 86_400) return `${Math.round(s / 86_400).toLocaleString('en')} days`;
  return `${(s / (365.25 * 86_400)).toLocaleString('en', { maximumFractionDigits: 1 })} years`;
}
