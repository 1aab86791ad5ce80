/**
 * "Auto-accept": on files not reviewed yet, accepts by rule the model's boxes at or above their
 * class's threshold for the target precision. It asks first with the count ("Accept N boxes on M
 * files?"), and the step it takes can be undone exactly ("Undo auto-accept").
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { thresholdReason, type AutoAcceptResult } from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { editsSaved } from '../../api/saving-edits.js';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { plural } from '../../ui/format.js';

type Step =
  | { kind: 'idle' }
  | { kind: 'counting' }
  | { kind: 'confirm'; preview: AutoAcceptResult }
  | { kind: 'accepting'; preview: AutoAcceptResult }
  | { kind: 'error'; error: unknown };

const boxesOnFiles = (r: { boxes: number; files: number }) =>
  `${plural(r.boxes, 'box', 'boxes')} on ${plural(r.files, 'file')}`;

export function AutoAcceptButton({ solution, target }: { solution: string; target: number }) {
  const { api } = useApiHandle();
  const client = useQueryClient();
  const last = useCall('quality.lastAutoAccept', { solution });
  // Items opened before (or prefetched) must show the new states: their boxes are refetched.
  const boxesChanged = () => {
    void client.invalidateQueries({ queryKey: ['review.boxes'] });
    void client.invalidateQueries({ queryKey: ['quality.lastAutoAccept'] });
  };
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [status, setStatus] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const open = step.kind === 'confirm' || step.kind === 'accepting' || step.kind === 'error';

  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) d.close();
  }, [open]);

  const count = async () => {
    setStep({ kind: 'counting' });
    try {
      // A file marked reviewed a moment ago is not auto-accepted: its mark is saved first.
      await editsSaved();
      const preview = await api.call('quality.autoAccept', {
        solution,
        targetPrecision: target,
        apply: false,
      });
      setStep({ kind: 'confirm', preview });
    } catch (error) {
      setStep({ kind: 'error', error });
    }
  };
  const accept = async (preview: AutoAcceptResult) => {
    setStep({ kind: 'accepting', preview });
    try {
      const r = await api.call('quality.autoAccept', {
        solution,
        targetPrecision: target,
        apply: true,
      });
      boxesChanged();
      setStatus(r.batchId === null ? 'Nothing to accept.' : `Accepted ${boxesOnFiles(r)} by rule.`);
      setStep({ kind: 'idle' });
    } catch (error) {
      setStep({ kind: 'error', error });
    }
  };
  const undo = async (batchId: number) => {
    try {
      const r = await api.call('quality.undoAutoAccept', { batchId });
      boxesChanged();
      setStatus(`Undid the auto-accept: ${plural(r.boxes, 'box', 'boxes')} back to review.`);
    } catch (error) {
      setStep({ kind: 'error', error });
    }
  };
  const preview = step.kind === 'confirm' || step.kind === 'accepting' ? step.preview : null;

  return (
    <div className="auto-accept">
      <button type="button" onClick={() => void count()} disabled={step.kind === 'counting'}>
        {step.kind === 'counting' ? 'Counting…' : 'Auto-accept'}
      </button>
      {last.data ? (
        <button
          type="button"
          title={`Puts the ${boxesOnFiles(last.data)} accepted by rule back to review`}
          onClick={() => void undo(last.data?.batchId ?? 0)}
        >
          Undo auto-accept
        </button>
      ) : null}
      <span role="status" className="muted">
        {status}
      </span>
      <dialog
        ref={dialog}
        aria-label="Auto-accept"
        className="confirm-dialog"
        onClose={() => setStep({ kind: 'idle' })}
      >
        {preview ? (
          <>
            <h2>
              {preview.boxes > 0
                ? `Accept ${boxesOnFiles(preview)}?`
                : 'No box reaches its class’s threshold'}
            </h2>
            <p>
              On files not reviewed yet, the model’s pending boxes at or above these thresholds (for{' '}
              {Math.round(preview.targetPrecision * 1000) / 10} % precision) become “accepted by
              rule”:
            </p>
            <ul className="small">
              {preview.classes.map((c) => (
                <li key={c.label}>
                  {c.label} ≥ {c.threshold.toFixed(3)}
                </li>
              ))}
            </ul>
            {preview.withheld.length > 0 ? (
              <>
                <p className="hint">
                  {preview.classes.length === 0
                    ? 'No class has a threshold at this target:'
                    : 'Left as they are:'}
                </p>
                <ul className="small" aria-label="Classes without a threshold">
                  {preview.withheld.map((c) => (
                    <li key={c.label}>
                      {c.label}: {thresholdReason(c, preview.targetPrecision)}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </>
        ) : null}
        {step.kind === 'error' ? <ErrorNote error={step.error} title="Auto-accept" /> : null}
        <div className="dialog-actions">
          <button type="button" onClick={() => setStep({ kind: 'idle' })}>
            Cancel
          </button>
          {preview && preview.boxes > 0 ? (
            <button
              type="button"
              className="primary"
              disabled={step.kind === 'accepting'}
              onClick={() => void accept(preview)}
            >
              Accept {plural(preview.boxes, 'box', 'boxes')}
            </button>
          ) : null}
        </div>
      </dialog>
    </div>
  );
}
