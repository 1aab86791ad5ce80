/** The trial flow: a session with the service, then a trial key kept in the keychain. */
import { useState, type FormEvent } from 'react';
import { useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';

export function TrialForm({ initialUrl }: { initialUrl: string }) {
  const [baseUrl, setBaseUrl] = useState(initialUrl);
  const trial = useCallMutation('service.startTrial', ['service.state', 'runs.estimate']);

  function submit(e: FormEvent) {
    e.preventDefault();
    trial.mutate({ baseUrl: baseUrl.trim() });
  }

  return (
    <form className="form-card" onSubmit={submit} aria-label="Trial">
      <h3>Try a hosted service</h3>
      <label className="field">
        <span>Trial base URL</span>
        <input
          type="url"
          required
          placeholder="https://detect.example.com"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
      </label>
      <div className="actions">
        <button type="submit" disabled={trial.isPending}>
          {trial.isPending ? 'Starting…' : 'Start trial'}
        </button>
      </div>
      {trial.isError ? <ErrorNote error={trial.error} /> : null}
      {trial.isSuccess ? <p role="status">Trial key received from {trial.data.baseUrl}.</p> : null}
    </form>
  );
}
