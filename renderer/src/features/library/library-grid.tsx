/**
 * The virtual thumbnail grid: only the rows in view are rendered and only their pages fetched.
 * Keyboard (the registry's library commands): arrows/Home/End/PageUp/PageDown move, Shift extends,
 * Space selects, Enter opens, Ctrl+A selects every item of the filter, Escape clears the selection.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { LibraryFilter, LibraryItem, LibrarySort } from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { ErrorNote } from '../../ui/error-note.js';
import {
  PAGE_SIZE,
  TILE_GAP,
  TILE_HEIGHT,
  columnsFor,
  moveFocus,
  rowCount,
} from './grid-geometry.js';
import { GridTile } from './grid-tile.js';
import { useLibraryState } from './library-state.js';
import { clickIntent, rangeBetween, replaceWith, toggle, withRange } from './selection.js';
import { useLibraryPages } from './use-library-pages.js';
import { commandKeyDown } from '../../keyboard/use-commands.js';

interface LibraryGridProps {
  filter: LibraryFilter;
  sort: LibrarySort;
  descending: boolean;
  /** Prefix of thumbnail URLs; null until app.info has answered (tiles show no image yet). */
  mediaBase: string | null;
  onOpen(item: LibraryItem): void;
  onTotal(total: number | null): void;
  /** Scroll to the focused item and focus it once shown (coming back from a review). */
  focusOnMount?: boolean;
}

const ROW = TILE_HEIGHT + TILE_GAP;

export function LibraryGrid(p: LibraryGridProps) {
  const { api } = useApiHandle();
  const { selection, setSelection, focusIndex, setFocusIndex } = useLibraryState();
  const scrollRef = useRef<HTMLDivElement>(null);
  const wantFocus = useRef(p.focusOnMount === true);
  const [width, setWidth] = useState(0);
  // Pages (not rows) in view are state: it changes only when a page boundary is crossed.
  const [pageSpan, setPageSpan] = useState({ first: 0, last: 0 });

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const columns = columnsFor(width - 16);
  const pages = useLibraryPages(
    p.filter,
    p.sort,
    p.descending,
    pageSpan.first * PAGE_SIZE,
    pageSpan.last * PAGE_SIZE,
  );
  const total = pages.total ?? 0;
  const rows = rowCount(total, columns);
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 3,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const firstPage = Math.floor(((virtualRows[0]?.index ?? 0) * columns) / PAGE_SIZE);
  const lastPage = Math.floor((((virtualRows.at(-1)?.index ?? 0) + 1) * columns - 1) / PAGE_SIZE);

  const { onTotal } = p;
  useEffect(() => onTotal(pages.total), [pages.total, onTotal]);
  useEffect(() => {
    if (firstPage !== pageSpan.first || lastPage !== pageSpan.last) {
      setPageSpan({ first: firstPage, last: lastPage });
    }
  }, [firstPage, lastPage, pageSpan]);
  useEffect(() => {
    if (!wantFocus.current) return;
    const cell = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${focusIndex}"]`);
    if (cell) {
      cell.focus({ preventScroll: true });
      wantFocus.current = false;
    }
  });

  const selectRange = useCallback(
    (index: number, add: boolean) => {
      const span = rangeBetween(selection.anchor, index);
      void api
        .call('library.ids', { filter: p.filter, sort: p.sort, descending: p.descending, ...span })
        .then((ids) => setSelection((s) => withRange(s, ids, add)));
    },
    [api, p.filter, p.sort, p.descending, selection.anchor, setSelection],
  );

  const onClick = useCallback(
    (e: MouseEvent, index: number, item: LibraryItem) => {
      setFocusIndex(index);
      const intent = clickIntent({ shift: e.shiftKey, ctrlOrMeta: e.ctrlKey || e.metaKey });
      if (intent === 'replace') setSelection(replaceWith(item.id, index));
      else if (intent === 'toggle') setSelection((s) => toggle(s, item.id, index));
      else selectRange(index, intent === 'range-add');
    },
    [setFocusIndex, setSelection, selectRange],
  );

  const move = (e: KeyboardEvent, extend: boolean) => {
    const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW) / ROW));
    const ctrl = e.ctrlKey || e.metaKey;
    const next = moveFocus(e.key, ctrl, focusIndex, columns, total, pageRows);
    if (next === null) return false;
    if (extend) {
      if (selection.anchor === null) setSelection((s) => ({ ...s, anchor: focusIndex }));
      selectRange(next, false);
    }
    wantFocus.current = true;
    setFocusIndex(next);
    virtualizer.scrollToIndex(Math.floor(next / columns));
    return true;
  };
  const focused = pages.item(focusIndex);
  // The grid's keys, from the command registry (the `?` help lists the same).
  const onKeyDown = commandKeyDown('library', {
    handlers: {
      'library.move': (_chord, e) => move(e, false),
      'library.extend': (_chord, e) => move(e, true),
      'library.selectAll': () => {
        if (total === 0) return;
        const all = { filter: p.filter, sort: p.sort, descending: p.descending, offset: 0 };
        void api
          .call('library.ids', { ...all, limit: Math.min(total, 200_000) })
          .then((ids) => setSelection({ ids: new Set(ids), anchor: 0 }));
      },
      'library.open': () => (focused ? p.onOpen(focused) : false),
      'library.select': () => (focused ? setSelection(replaceWith(focused.id, focusIndex)) : false),
      'library.toggle': () =>
        focused ? setSelection((s) => toggle(s, focused.id, focusIndex)) : false,
      'library.clear': () =>
        selection.ids.size > 0 ? setSelection({ ids: new Set(), anchor: null }) : false,
    },
  });

  const focusRow = Math.floor(focusIndex / columns);
  const scrolledOnMount = useRef(false);
  useEffect(() => {
    if (!p.focusOnMount || scrolledOnMount.current || width === 0 || rows === 0) return;
    scrolledOnMount.current = true;
    virtualizer.scrollToIndex(focusRow, { align: 'center' });
  }, [p.focusOnMount, width, rows, focusRow, virtualizer]);
  const focusRendered = virtualRows.some((r) => r.index === focusRow);
  return (
    <>
      {pages.error ? <ErrorNote error={pages.error} /> : null}
      <div
        ref={scrollRef}
        className="grid-scroll"
        role="grid"
        aria-label="Library"
        aria-rowcount={rows}
        aria-colcount={columns}
        aria-multiselectable="true"
        tabIndex={focusRendered && total > 0 ? -1 : 0}
        onKeyDown={onKeyDown}
      >
        {/* The virtualizer's height and row offsets are the only inline styles (CSSOM, not markup). */}
        <div className="grid-sizer" style={{ height: virtualizer.getTotalSize() }}>
          {virtualRows.map((vr) => (
            <div
              key={vr.key}
              role="row"
              aria-rowindex={vr.index + 1}
              className="grid-row"
              style={{ transform: `translateY(${vr.start}px)` }}
            >
              {Array.from({ length: columns }, (_, c) => {
                const index = vr.index * columns + c;
                if (index >= total) return null;
                const item = pages.item(index);
                return (
                  <GridTile
                    key={c}
                    index={index}
                    column={c}
                    item={item}
                    mediaBase={p.mediaBase}
                    selected={item ? selection.ids.has(item.id) : false}
                    focused={index === focusIndex}
                    onClick={onClick}
                    onOpen={p.onOpen}
                  />
                );
              })}
            </div>
          ))}
        </div>
      </div>
    </>
  );
}
