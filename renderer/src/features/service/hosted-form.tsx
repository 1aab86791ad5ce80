/**
 * Connect to a hosted service with an API key. The key goes to the keychain through one call and
 * is never shown again: the field is emptied after every submit, whatever the answer.
 */
import { useState, type FormEvent } from 'react';
import { useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';

export function HostedForm({ initialUrl }: { initialUrl: string }) {
  const [baseUrl, setBaseUrl] = useState(initialUrl);
  const [apiKey, setApiKey] = useState('');
  const useHosted = useCallMutation('service.useHosted', ['service.state', 'runs.estimate']);

  function submit(e: FormEvent) {
    e.preventDefault();
    const key = apiKey;
    setApiKey('');
    useHosted.mutate({ baseUrl: baseUrl.trim(), apiKey: key.trim() });
  }

  return (
    <form className="form-card" onSubmit={submit} aria-label="Hosted service">
      <h3>Connect to a hosted service</h3>
      <label className="field">
        <span>Base URL</span>
        <input
          type="url"
          required
          placeholder="https://detect.example.com"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
      </label>
      <label className="field">
        <span>API key</span>
        <input
          type="password"
          required
          minLength={8}
          autoComplete="off"
          spellCheck={false}
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
        />
      </label>
      <p className="hint">The key is stored in the system keychain and never shown again.</p>
      <div className="actions">
        <button type="submit" className="primary" disabled={useHosted.isPending}>
          {useHosted.isPending ? 'Connecting…' : 'Connect'}
        </button>
      </div>
      {useHosted.isError ? <ErrorNote error={useHosted.error} /> : null}
      {useHosted.isSuccess ? <p role="status">Connected to {useHosted.data.baseUrl}.</p> : null}
    </form>
  );
}
