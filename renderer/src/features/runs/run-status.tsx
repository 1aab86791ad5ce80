/** The current run: progress while it runs, why it waits, and how it ended. */
import type { RunState } from '@shared/contract/index.js';
import { ACTIVE_PHASES, rateText, runStatusText } from './run-text.js';

export function RunStatus({ run }: { run: RunState }) {
  const active = ACTIVE_PHASES.has(run.phase);
  // A rate and an ETA mean nothing while nothing is sent (waiting for the hour, paused).
  const moving = run.phase === 'running';
  const done = Math.min(run.completed, run.total);
  const percent = run.total > 0 ? Math.round((done / run.total) * 100) : 0;
  return (
    <div className={`run-status run-${run.phase}`}>
      {active ? (
        <div className="progress-line">
          <progress
            max={Math.max(1, run.total)}
            value={done}
            aria-label="Run progress"
            aria-valuemin={0}
            aria-valuemax={run.total}
            aria-valuenow={done}
            aria-valuetext={`${done} of ${run.total} files (${percent}%)`}
          />
          <span className="progress-figures">
            {done} / {run.total} · {moving ? `${rateText(run)} · ` : ''}
            {run.framesSpent} frames spent
          </span>
        </div>
      ) : null}
      <p className="run-status-text" role="status">
        {runStatusText(run)}
      </p>
      {run.notes && run.notes.length > 0 ? (
        // Said once and kept until the next run: how boxes were read (issue 23).
        <ul className="run-notes" aria-label="Run notes">
          {run.notes.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
