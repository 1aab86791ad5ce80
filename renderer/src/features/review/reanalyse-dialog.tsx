/**
 * "Re-analyse": sends the item to the model again. It spends frames, so it asks first, stating
 * the estimate; corrections stay attached to the item and show over the new boxes.
 */
import { useEffect, useRef, useState } from 'react';
import type { Estimate } from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { ErrorNote } from '../../ui/error-note.js';
import { estimateText } from '../runs/run-text.js';

interface ReanalyseProps {
  mediaIds: number[];
  solution: string;
  onStarted(): void;
}

type Step =
  | { kind: 'idle' }
  | { kind: 'estimating' }
  | { kind: 'confirm'; estimate: Estimate }
  | { kind: 'starting'; estimate: Estimate }
  | { kind: 'error'; error: unknown };

export function ReanalyseButton({ mediaIds, solution, onStarted }: ReanalyseProps) {
  const { api } = useApiHandle();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const dialog = useRef<HTMLDialogElement>(null);
  const open = step.kind === 'confirm' || step.kind === 'starting' || step.kind === 'error';

  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) d.close();
  }, [open]);

  const estimate = async () => {
    setStep({ kind: 'estimating' });
    try {
      setStep({
        kind: 'confirm',
        estimate: await api.call('runs.estimateReanalyse', { solution, mediaIds }),
      });
    } catch (error) {
      setStep({ kind: 'error', error });
    }
  };
  const start = async (e: Estimate) => {
    setStep({ kind: 'starting', estimate: e });
    try {
      await api.call('runs.reanalyse', { solution, mediaIds });
      setStep({ kind: 'idle' });
      onStarted();
    } catch (error) {
      setStep({ kind: 'error', error });
    }
  };
  const e = step.kind === 'confirm' || step.kind === 'starting' ? step.estimate : null;

  return (
    <>
      <button type="button" onClick={() => void estimate()} disabled={step.kind === 'estimating'}>
        {step.kind === 'estimating' ? 'Estimating…' : 'Re-analyse'}
      </button>
      <dialog
        ref={dialog}
        aria-label="Re-analyse"
        className="confirm-dialog"
        onClose={() => setStep({ kind: 'idle' })}
      >
        <h2>Re-analyse {mediaIds.length === 1 ? 'this file' : `${mediaIds.length} files`}?</h2>
        {e ? (
          <>
            <p>{estimateText(e)}</p>
            <p className="hint">
              Your corrections are kept and shown over the new boxes; the new model boxes wait for
              review.
            </p>
          </>
        ) : null}
        {step.kind === 'error' ? <ErrorNote error={step.error} title="Re-analyse" /> : null}
        <div className="dialog-actions">
          <button type="button" onClick={() => setStep({ kind: 'idle' })}>
            Cancel
          </button>
          {e ? (
            <button
              type="button"
              className="primary"
              disabled={step.kind === 'starting'}
              onClick={() => void start(e)}
            >
              {e.costUnknown > 0
                ? 'Re-analyse (cost learnt from the first file)'
                : `Re-analyse, spend ${e.frames} ${e.frames === 1 ? 'frame' : 'frames'}`}
            </button>
          ) : null}
        </div>
      </dialog>
    </>
  );
}
