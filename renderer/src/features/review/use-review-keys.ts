/**
 * The review screen's keys, listened for on the window so they work whether focus is on the
 * picture or in the Boxes list; typing in a field, an open dialog, or a key a control has already
 * handled (the list's up/down) are left alone.
 */
import { useEffect, useRef } from 'react';
import { reviewAction, type ReviewAction } from './review-shortcuts.js';

interface KeyContext {
  hasSelection: boolean;
  /** A clip: its own keys (play, frame step, detections) are on. */
  clip?: boolean;
  stage(): HTMLElement | null;
  /** Handles the action; answers false to let the key do its usual thing (Tab past the last box). */
  run(action: ReviewAction): boolean;
}

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('dialog')) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['range', 'checkbox'].includes(target.type);
  return target.isContentEditable;
}

export function useReviewKeys(ctx: KeyContext): void {
  const live = useRef(ctx);
  live.current = ctx;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || typing(e.target)) return;
      const c = live.current;
      // A range input keeps its arrows (the threshold slider); other keys still act.
      const onRange = e.target instanceof HTMLInputElement && e.target.type === 'range';
      if (onRange && e.key.startsWith('Arrow')) return;
      const action = reviewAction({
        key: e.key,
        ctrl: e.ctrlKey || e.metaKey,
        shift: e.shiftKey,
        alt: e.altKey,
        hasSelection: c.hasSelection,
        clip: c.clip ?? false,
        onStage: c.stage() !== null && document.activeElement === c.stage(),
      });
      if (!action) return;
      if (c.run(action) === false) return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
