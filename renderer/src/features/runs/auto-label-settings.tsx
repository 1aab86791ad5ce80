/** Auto-labelling of watched folders: on/off, which solution, and its own budget. */
import { useState, type FormEvent } from 'react';
import type { AutoLabel, SolutionView } from '@shared/contract/index.js';
import { useCall, useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { count } from '../../ui/format.js';
import { Switch } from '../../ui/switch.js';

function AutoLabelForm({ saved, solutions }: { saved: AutoLabel; solutions: SolutionView[] }) {
  const save = useCallMutation('runs.setAutoLabel', ['runs.autoLabel']);
  const [budget, setBudget] = useState(saved.budget === null ? '' : String(saved.budget));
  const apply = (next: Partial<Omit<AutoLabel, 'spent'>>) =>
    save.mutate({
      enabled: next.enabled ?? saved.enabled,
      solution: next.solution ?? saved.solution,
      budget: next.budget !== undefined ? next.budget : saved.budget,
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply({ budget: budget.trim() === '' ? null : Math.max(0, Math.floor(Number(budget))) });
  };
  return (
    <form className="auto-label" onSubmit={submit} aria-label="Auto-label settings">
      <Switch
        label="Auto-label watched folders"
        checked={saved.enabled}
        onChange={(v) => apply({ enabled: v })}
      />
      <label className="field inline">
        <span>Auto-label model</span>
        <select value={saved.solution} onChange={(e) => apply({ solution: e.target.value })}>
          {solutions.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field inline">
        <span>Auto-label budget (frames)</span>
        <input
          type="number"
          min={0}
          step={1}
          placeholder="no limit"
          value={budget}
          onChange={(e) => setBudget(e.target.value)}
        />
      </label>
      <button type="submit">Save budget</button>
      <span className="muted">{count(saved.spent)} frames spent this session</span>
      {save.isError ? <ErrorNote error={save.error} /> : null}
    </form>
  );
}

export function AutoLabelSettings({ solutions }: { solutions: SolutionView[] }) {
  const auto = useCall('runs.autoLabel', {});
  return (
    <section className="panel" aria-labelledby="auto-title">
      <h2 id="auto-title">Auto-label</h2>
      <p className="hint">
        Folders with Auto-label on (Folders screen) have new files labelled as they arrive.
      </p>
      {auto.isError ? <ErrorNote error={auto.error} /> : null}
      {auto.data ? (
        <AutoLabelForm key={`${auto.data.budget}`} saved={auto.data} solutions={solutions} />
      ) : null}
    </section>
  );
}
