/**
 * What the app's long listboxes share: only the rows in view are in the document (virtualised,
 * fixed row height), the active option is kept in view (so it exists for aria-activedescendant),
 * and the keys that walk a listbox give the index to move to.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';

export function useVirtualListbox(count: number, rowHeight: number, activeIndex: number) {
  const listRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => listRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });

  useEffect(() => {
    if (activeIndex >= 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

  /** The index a walking key moves to (arrows, pages, Home, End), or undefined for other keys. */
  const walkTo = (e: KeyboardEvent): number | undefined => {
    const page = Math.max(1, Math.floor((listRef.current?.clientHeight ?? 0) / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: page,
      PageUp: -page,
      Home: -Infinity,
      End: Infinity,
    };
    const step = moves[e.key];
    if (step === undefined || count === 0) return undefined;
    return Math.min(count - 1, Math.max(0, activeIndex + step));
  };

  return { listRef, virtualizer, walkTo };
}
