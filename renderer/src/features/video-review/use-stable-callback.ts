/**
 * A function that stays the same across renders and calls the latest `f`: memoised rows and
 * panels can take it as a prop without rendering again each time the screen does (a seek).
 */
import { useCallback, useRef } from 'react';

export function useStableCallback<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  const latest = useRef(f);
  latest.current = f;
  return useCallback((...args: A) => latest.current(...args), []);
}
