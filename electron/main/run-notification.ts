/** The desktop notification shown when a run ends: what happened, in one title and one line. */
import type { RunState } from '../shared/contract/run-schemas.js';

const TITLES: Partial<Record<RunState['phase'], string>> = {
  done: 'Labelling finished',
  stopped: 'Labelling stopped',
  cancelled: 'Labelling cancelled',
  failed: 'Labelling failed',
};

export function runFinishedNotice(run: RunState): { title: string; body: string } {
  const counts = [
    `${run.labelled} labelled`,
    run.reused > 0 ? `${run.reused} reused` : '',
    run.failed > 0 ? `${run.failed} failed` : '',
    run.uncertain > 0 ? `${run.uncertain} uncertain` : '',
    `${run.framesSpent} frames spent`,
  ].filter(Boolean);
  const body = [counts.join(', '), run.detail ?? ''].filter(Boolean).join('. ');
  return { title: TITLES[run.phase] ?? 'Labelling ended', body };
}
