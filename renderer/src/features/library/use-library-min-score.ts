/**
 * The library's minimum score (issue 27): the threshold a review and an export start from. The
 * service keeps boxes down to a lower floor; this is what a person sees unless they move a slider.
 */
import { useEffect, useRef } from 'react';
import { useCall } from '../../api/use-call.js';

/** Calls `apply` once with the stored minimum score, when it has loaded. */
export function useLibraryMinScore(apply: (minScore: number) => void): number | undefined {
  const stored = useCall('library.minScore', {});
  const minScore = stored.data?.minScore;
  const applied = useRef(false);
  const latest = useRef(apply);
  latest.current = apply;
  useEffect(() => {
    if (minScore === undefined || applied.current) return;
    applied.current = true;
    latest.current(minScore);
  }, [minScore]);
  return minScore;
}
