/** The least time each call to the service is given (a library setting; `labeldesk config call-deadline`). */
import { useEffect, useState, type FormEvent } from 'react';
import { useCall, useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';

const SOURCES = {
  default: 'the default',
  setting: 'set for this library',
  environment: 'from LABELDESK_CALL_DEADLINE_S, which overrides the setting while the app runs',
} as const;

export function CallDeadlineForm() {
  const current = useCall('service.callDeadline', {});
  const save = useCallMutation('service.setCallDeadline', ['service.callDeadline']);
  const [seconds, setSeconds] = useState('');
  useEffect(() => {
    if (current.data) setSeconds(String(current.data.seconds));
  }, [current.data]);

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate({ seconds: Math.round(Number(seconds)) });
  }

  return (
    <form className="form-card" onSubmit={submit} aria-label="Call deadline">
      <h3>Call deadline</h3>
      <p className="muted">
        The least time each call to the service is given (an upload adds its size at 128 KB/s); past
        it the call is abandoned and a file that may have been charged is kept uncertain.
        {current.data ? ` Now ${current.data.seconds} s, ${SOURCES[current.data.source]}.` : ''}
      </p>
      <label className="field">
        <span>Seconds (1–86400)</span>
        <input
          type="number"
          min={1}
          max={86_400}
          step={1}
          required
          value={seconds}
          onChange={(e) => setSeconds(e.target.value)}
        />
      </label>
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save
        </button>
        <button type="button" onClick={() => save.mutate({ seconds: null })}>
          Use the default (120 s)
        </button>
      </div>
      {current.isError ? <ErrorNote error={current.error} /> : null}
      {save.isError ? <ErrorNote error={save.error} /> : null}
      {save.isSuccess ? <p role="status">Call deadline: {save.data.seconds} s.</p> : null}
    </form>
  );
}
