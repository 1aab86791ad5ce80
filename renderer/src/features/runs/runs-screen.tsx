/** The Runs screen: choose what and how, see the estimate, start and steer a run, see the past. */
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { RunScope, RunState } from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { callKey, useCall } from '../../api/use-call.js';
import { useAppState } from '../../app/app-state.js';
import { ErrorNote } from '../../ui/error-note.js';
import { AutoLabelSettings } from './auto-label-settings.js';
import { EstimatePanel } from './estimate-panel.js';
import { RunHistory } from './run-history.js';
import { RunProblems } from './run-problems.js';
import { RunStatus } from './run-status.js';
import { ACTIVE_PHASES } from './run-text.js';
import { ScopePicker, type ScopeKind } from './scope-picker.js';
import { UnknownCostDialog } from './unknown-cost-dialog.js';

/** "" is no limit; anything else a whole number of frames. */
function budgetValue(text: string): number | null {
  const n = Number(text);
  return text.trim() === '' || !Number.isFinite(n) ? null : Math.max(0, Math.floor(n));
}

export function RunsScreen() {
  const { api } = useApiHandle();
  const client = useQueryClient();
  const { solution, setSolution, selectionScope } = useAppState();
  const service = useCall('service.state', {});
  const folders = useCall('folders.list', {});
  const current = useCall('runs.current', {});
  const [kind, setKind] = useState<ScopeKind>(selectionScope ? 'selection' : 'all');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [budget, setBudget] = useState('');
  const [hourBudget, setHourBudget] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [asking, setAsking] = useState(false);
  // From the click until the run answers: the last run's ending is no longer what is happening.
  const [starting, setStarting] = useState(false);

  const scope = useMemo<RunScope | null>(() => {
    if (kind === 'selection' && selectionScope) return { solution, mediaIds: selectionScope };
    if (kind === 'folders') return chosen.size ? { solution, folderIds: [...chosen] } : null;
    return { solution };
  }, [kind, chosen, solution, selectionScope]);

  const estimate = useCall('runs.estimate', scope ?? { solution: '' }, {
    enabled: scope !== null,
  });
  const run = current.data ?? null;
  const active = run !== null && ACTIVE_PHASES.has(run.phase);

  async function act(action: () => Promise<RunState | null>) {
    setBusy(true);
    setError(null);
    try {
      const next = await action();
      if (next) client.setQueryData(callKey('runs.current', {}), next);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      void client.invalidateQueries({ queryKey: ['runs.history'] });
    }
  }

  const startNow = async (acceptUnknownCost: boolean) => {
    if (!scope) return;
    setStarting(true);
    try {
      await act(() =>
        api.call('runs.start', {
          ...scope,
          budget: budgetValue(budget),
          hourBudget: budgetValue(hourBudget),
          acceptUnknownCost,
        }),
      );
    } finally {
      setStarting(false);
    }
  };
  // A cost the service does not publish is learnt from the first file: the person is asked first.
  const start = () => ((estimate.data?.costUnknown ?? 0) > 0 ? setAsking(true) : startNow(false));
  const retry = (mediaIds: number[]) => act(() => api.call('runs.retry', { solution, mediaIds }));

  const solutions = service.data?.solutions ?? [];
  return (
    <div className="screen runs-screen">
      <div className="screen-head">
        <h1>Runs</h1>
      </div>
      <section className="panel run-setup" aria-label="New run">
        <div className="run-setup-grid">
          <label className="field">
            <span>Solution</span>
            <select value={solution} onChange={(e) => setSolution(e.target.value)}>
              {solutions.length === 0 ? <option value={solution}>{solution}</option> : null}
              {solutions.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.frameCost.image ?? 'unknown'} per image,{' '}
                  {s.frameCost.videoFrame ?? 'unknown'} per clip frame)
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Budget (frames)</span>
            <input
              type="number"
              min={0}
              step={1}
              placeholder="no limit"
              value={budget}
              onChange={(e) => setBudget(e.target.value)}
            />
          </label>
          <label className="field">
            <span>Hour budget (frames)</span>
            <input
              type="number"
              min={0}
              step={1}
              placeholder="no limit"
              value={hourBudget}
              onChange={(e) => setHourBudget(e.target.value)}
            />
          </label>
        </div>
        <ScopePicker
          kind={kind}
          onKind={setKind}
          folders={folders.data ?? []}
          chosen={chosen}
          onChosen={setChosen}
          selectionSize={selectionScope ? selectionScope.length : null}
        />
        <EstimatePanel scope={scope} />
        <div className="actions run-actions">
          <button
            type="button"
            className="primary"
            disabled={busy || active || scope === null}
            onClick={() => void start()}
          >
            Start
          </button>
          <button
            type="button"
            disabled={busy || !active || run.phase === 'paused' || run.phase === 'pausing'}
            onClick={() => void act(() => api.call('runs.pause', {}))}
          >
            Pause
          </button>
          <button
            type="button"
            disabled={busy || run?.phase !== 'paused'}
            onClick={() => void act(() => api.call('runs.resume', {}))}
          >
            Resume
          </button>
          <button
            type="button"
            disabled={busy || !active || run.phase === 'cancelling'}
            onClick={() => void act(() => api.call('runs.cancel', {}))}
          >
            Cancel
          </button>
        </div>
        <UnknownCostDialog
          open={asking}
          solution={solution}
          files={estimate.data?.costUnknown ?? 0}
          onCancel={() => setAsking(false)}
          onAccept={() => {
            setAsking(false);
            void startNow(true);
          }}
        />
        {error ? <ErrorNote error={error} /> : null}
        {current.isError ? <ErrorNote error={current.error} /> : null}
        {starting ? (
          <p className="run-status-text" role="status">
            Starting…
          </p>
        ) : run ? (
          <RunStatus run={run} />
        ) : null}
      </section>
      <RunProblems solution={solution} busy={busy || active} onRetry={(ids) => void retry(ids)} />
      <RunHistory />
      <AutoLabelSettings solutions={solutions} />
    </div>
  );
}
