/**
 * Whether the open item is reviewed (its shown boxes are ground truth for the Quality screen),
 * and the toggle behind `M` and "Mark reviewed": shown at once, saved at once.
 */
import { useCall, useCallMutation } from '../../api/use-call.js';

export interface ReviewedMark {
  reviewed: boolean;
  by: 'person' | 'import' | null;
  error: Error | null;
  toggle(): void;
}

export function useReviewedMark(id: number, solution: string): ReviewedMark {
  const state = useCall('review.reviewed', { id, solution });
  const mark = useCallMutation('review.markReviewed', [
    'review.reviewed',
    'library.page',
    'quality.evaluate',
  ]);
  const saving = mark.isPending && mark.variables.id === id;
  const reviewed = saving ? mark.variables.reviewed : (state.data?.reviewed ?? false);
  return {
    reviewed,
    by: state.data?.by ?? null,
    error: mark.error,
    toggle: () => {
      if (!mark.isPending) mark.mutate({ id, solution, reviewed: !reviewed });
    },
  };
}
