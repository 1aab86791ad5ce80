/**
 * The Quality screen's "Target precision": the solution's stored target when the screen opens, and
 * a person's change stored once it has stopped changing (Review priority is calibrated with it).
 */
import { useEffect, useRef, useState } from 'react';
import { useCall, useCallMutation } from '../../api/use-call.js';
import { useDebounced } from '../library/use-debounced.js';

/** Percent as typed, to a precision in range (a half-typed number stays on screen meanwhile). */
const precisionOf = (percent: number) => Math.min(99.9, Math.max(50, percent)) / 100;
/** 0.975 shows as 97.5, not 97.49999999999999. */
const percentOf = (precision: number) => Math.round(precision * 1000) / 10;

export function useStoredTarget(solution: string) {
  const stored = useCall('quality.target', { solution });
  const save = useCallMutation('quality.setTarget', ['quality.target']);
  // Kept with its solution: a number typed for one solution is never stored for another.
  const [edit, setEdit] = useState<{ solution: string; percent: number } | null>(null);
  const settled = useDebounced(edit, 300);
  // Null: the person has not typed here since the screen opened; the stored target shows.
  const typed = edit?.solution === solution ? edit.percent : null;
  const wanted = settled?.solution === solution ? settled.percent : null;
  const storedPrecision = stored.data?.targetPrecision;
  const target = wanted !== null && Number.isFinite(wanted) ? precisionOf(wanted) : storedPrecision;
  const { mutate } = save;
  useEffect(() => {
    if (target !== undefined && storedPrecision !== undefined && target !== storedPrecision) {
      mutate({ solution, targetPrecision: target });
    }
  }, [target, storedPrecision, solution, mutate]);
  // Leaving the screen within the debounce still stores what was typed last.
  const last = useRef({ edit, storedPrecision, mutate });
  last.current = { edit, storedPrecision, mutate };
  useEffect(
    () => () => {
      const { edit: e, storedPrecision: s, mutate: m } = last.current;
      if (!e || !Number.isFinite(e.percent) || s === undefined) return;
      const precision = precisionOf(e.percent);
      if (precision !== s) m({ solution: e.solution, targetPrecision: precision });
    },
    [],
  );
  const shown = typed ?? (storedPrecision === undefined ? undefined : percentOf(storedPrecision));
  return {
    /** What the spinbutton shows, in percent (undefined while the stored target loads). */
    shown,
    setTyped: (percent: number) => setEdit({ solution, percent }),
    /** The precision the evaluation and auto-accept use (undefined while it loads). */
    target,
    error: stored.error ?? save.error,
  };
}
