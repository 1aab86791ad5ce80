/**
 * "Check service": what LabelDesk understood of the service, part by part (nothing spent), and,
 * with a file, that one file sent: its boxes drawn on it (so a person sees whether they sit on the
 * objects), the corner/centre reading offered, its detection form and its learnt cost.
 */
import { useState } from 'react';
import type { CheckReport } from '@shared/contract/index.js';
import { useCall, useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { SpendPreview } from './spend-preview.js';
import '../../styles/check-service.css';

const VERDICTS: Record<CheckReport['parts'][number]['verdict'], string> = {
  understood: 'Understood',
  'understood-as': 'Understood as',
  'not-published': 'Not published',
  'not-understood': 'Not understood',
};

export function CheckServicePanel() {
  const check = useCallMutation('service.check', ['service.state', 'runs.estimate']);
  const reading = useCall('service.reading', {});
  const [file, setFile] = useState('');
  const report = check.data;

  return (
    <section className="panel check-service" aria-labelledby="check-title">
      <h2 id="check-title">Check service</h2>
      <p className="hint">
        Reads the catalog, the health and the key and says what LabelDesk understood; nothing is
        spent. With a file, that one file is sent (it costs its frames) and its boxes are drawn.
      </p>
      <div className="form-row check-actions">
        <button
          type="button"
          className="primary"
          disabled={check.isPending}
          onClick={() => check.mutate({})}
        >
          Check service
        </button>
        <label className="field grow">
          <span>File to send (optional, spends its frames)</span>
          <input
            type="text"
            value={file}
            placeholder="/path/to/photo.jpg"
            onChange={(e) => setFile(e.target.value)}
          />
        </label>
        <button
          type="button"
          disabled={check.isPending || file.trim() === ''}
          onClick={() => check.mutate({ spendFile: file.trim() })}
        >
          Send this file
        </button>
      </div>
      {check.isPending ? <p className="loading">Checking…</p> : null}
      {check.isError ? <ErrorNote error={check.error} title="Check service" /> : null}
      {report ? (
        <>
          <p role="status" className={report.ok ? 'check-ok' : 'check-bad'}>
            {report.ok
              ? 'Everything LabelDesk needs is understood.'
              : 'Not everything LabelDesk needs is understood.'}
          </p>
          <ul className="check-parts" aria-label="What LabelDesk understood">
            {report.parts.map((p) => (
              <li key={`${p.part}:${p.text}`} className={`verdict-${p.verdict}`}>
                <span className="check-verdict">{VERDICTS[p.verdict]}</span> <code>{p.part}</code> —{' '}
                {p.text}
              </li>
            ))}
            <li>
              <span className="check-verdict">Kept</span> paid answers not understood:{' '}
              {report.keptAnswers === 0
                ? 'none'
                : `${report.keptAnswers}, kept to be read again when the reading improves`}
            </li>
          </ul>
          {report.spend ? (
            <SpendPreview
              spend={report.spend}
              origin={reading.data?.boxOrigin ?? report.spend.boxOrigin}
              undecided={report.parts.some(
                (p) => p.part === 'box origin' && p.verdict === 'not-understood',
              )}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
