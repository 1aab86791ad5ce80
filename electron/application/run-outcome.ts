/** How a run that was not paused ended, in the words its detail line shows. */
import { stopMessage, type RunSummary } from '../core/runner/run-labelling.js';
import type { RunPhase } from '../shared/contract/index.js';

export function runOutcome(
  s: RunSummary,
  cancelled: boolean,
): { phase: RunPhase; detail: string | null } {
  const open = s.clipsOpen
    ? ` ${s.clipsOpen} clip${s.clipsOpen === 1 ? ' is' : 's are'} still being analysed; the next run collects ${s.clipsOpen === 1 ? 'it' : 'them'} at no extra cost.`
    : '';
  if (cancelled) return { phase: 'cancelled', detail: `Cancelled.${open}` };
  if (s.diskFull) {
    return {
      phase: 'stopped',
      detail: 'The disk holding the library is full: free some space and start again.',
    };
  }
  if (s.serviceWait) {
    const why = s.serviceWait.reason;
    return { phase: 'stopped', detail: `Paused: ${why}. Start again later.${open}` };
  }
  if (s.stoppedFor) return { phase: 'stopped', detail: stopMessage(s.stoppedFor) + open };
  // A team project's hub away: the run went on, and may have paid for a file another member paid.
  const hubAway = s.team?.offline
    ? `The team hub could not be asked (${s.team.offline}): a file another member also sent may have been paid twice.`
    : null;
  return { phase: 'done', detail: hubAway };
}

export function isFinal(phase: RunPhase): boolean {
  return phase === 'done' || phase === 'stopped' || phase === 'cancelled' || phase === 'failed';
}
