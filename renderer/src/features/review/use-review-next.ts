/**
 * Review next (button and Enter): marks the open file reviewed and opens the file not reviewed
 * yet with the most expected corrections; when none is left it says so, and the file stays open.
 * A file that shows no box becomes ground truth for "no objects" when marked: the first time in a
 * session that happens, it asks (a stray Enter on an empty picture would otherwise say so silently).
 */
import { useEffect, useState } from 'react';
import { useCallMutation } from '../../api/use-call.js';

export interface ReviewNext {
  /** "Every file is reviewed." once the last one is done; else null. */
  status: string | null;
  error: Error | null;
  busy: boolean;
  /** Asking whether an empty file is to be marked reviewed as holding no objects. */
  asking: boolean;
  go(): void;
  /** The answer to the question: yes marks it and moves on (and is not asked again this session). */
  answer(yes: boolean): void;
}

/** Asked once per session (a page load): a person who said yes knows what Enter does here. */
let emptyConfirmed = false;

export function useReviewNext(
  id: number,
  solution: string,
  onOpen: (id: number) => void,
  /** The file shows no box (none left that is not rejected). */
  empty = false,
) {
  const next = useCallMutation('review.next', [
    'review.reviewed',
    'library.page',
    'library.ids',
    'quality.evaluate',
  ]);
  const [status, setStatus] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    setStatus(null);
    setAsking(false);
  }, [id]);
  const move = () => {
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
  };
  return {
    status,
    error: next.error,
    busy: next.isPending,
    asking,
    go: () => {
      if (empty && !emptyConfirmed) setAsking(true);
      else move();
    },
    answer: (yes: boolean) => {
      setAsking(false);
      if (!yes) return;
      emptyConfirmed = true;
      move();
    },
  } satisfies ReviewNext;
}
