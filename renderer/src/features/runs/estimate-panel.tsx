/** The estimate for the chosen scope, refreshed when the library or the credits change. */
import type { RunScope } from '@shared/contract/index.js';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { estimateNotes, estimateText } from './run-text.js';

export function EstimatePanel({ scope }: { scope: RunScope | null }) {
  const estimate = useCall('runs.estimate', scope ?? { solution: '' }, {
    enabled: scope !== null,
  });
  if (scope === null) return <p className="muted">Choose at least one folder.</p>;
  if (estimate.isError) return <ErrorNote error={estimate.error} title="Estimate" />;
  if (!estimate.data) return <p className="loading">Estimating…</p>;
  return (
    <div className="estimate">
      <p className="estimate-text" aria-live="polite">
        {estimateText(estimate.data)}
      </p>
      {estimateNotes(estimate.data).map((n) => (
        <p key={n} className="hint">
          {n}
        </p>
      ))}
    </div>
  );
}
