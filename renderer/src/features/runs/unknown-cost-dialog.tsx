/**
 * Asked before a run whose cost the service does not publish: LabelDesk sends one file first,
 * learns the cost from the service's own count, and goes on within the budget from then on.
 */
import { useEffect, useRef } from 'react';
import '../../styles/review.css';

export function UnknownCostDialog({
  open,
  solution,
  files,
  onAccept,
  onCancel,
}: {
  open: boolean;
  solution: string;
  files: number;
  onAccept(): void;
  onCancel(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) d.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-label="Cost unknown" className="confirm-dialog" onClose={onCancel}>
      <h2>Cost unknown until the first file</h2>
      <p>
        The service does not publish what {solution} costs, so the frames for {files}{' '}
        {files === 1 ? 'file' : 'files'} are not in the estimate. LabelDesk sends one file first,
        learns the cost from the service&apos;s own count, and then keeps to your budget.
      </p>
      <p className="hint">Only the first file&apos;s cost is at risk.</p>
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={onAccept}>
          Send the first file and learn the cost
        </button>
      </div>
    </dialog>
  );
}
