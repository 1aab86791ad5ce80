/** "Mark reviewed" (key M): a toggle; pressed, the item's shown boxes are ground truth. */
import type { ReviewedMark } from './use-reviewed-mark.js';

export function MarkReviewedButton({ mark }: { mark: ReviewedMark }) {
  const how = mark.by === 'import' ? ' (from imported labels)' : '';
  return (
    <button
      type="button"
      className="mark-reviewed"
      aria-pressed={mark.reviewed}
      aria-keyshortcuts="M"
      onClick={mark.toggle}
      title={
        mark.reviewed
          ? `Reviewed${how}: its boxes are ground truth for Quality. M takes the mark off.`
          : 'M: the boxes shown become ground truth for the Quality screen'
      }
    >
      Mark reviewed
    </button>
  );
}
