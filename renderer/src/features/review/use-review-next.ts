/**
 * Review next (button and Enter): marks the open file reviewed and opens the file not reviewed
 * yet with the most expected corrections; when none is left it says so, and the file stays open.
 */
import { useEffect, useState } from 'react';
import { useCallMutation } from '../../api/use-call.js';

export interface ReviewNext {
  /** "Every file is reviewed." once the last one is done; else null. */
  status: string | null;
  error: Error | null;
  busy: boolean;
  go(): void;
}

export function useReviewNext(id: number, solution: string, onOpen: (id: number) => void) {
  const next = useCallMutation('review.next', [
    'review.reviewed',
    'library.page',
    'library.ids',
    'quality.evaluate',
  ]);
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => setStatus(null), [id]);
  return {
    status,
    error: next.error,
    busy: next.isPending,
    go: () => {
      if (next.isPending) return;
      next.mutate(
        { id, solution },
        {
          onSuccess: (r) => {
            if (r.next !== null) onOpen(r.next);
            else setStatus('Every file is reviewed: there is no file left to review.');
          },
        },
      );
    },
  } satisfies ReviewNext;
}
