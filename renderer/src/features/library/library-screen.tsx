/** The Library screen: filters, the per-class chart, the grid and its selection; or one item open. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useCall } from '../../api/use-call.js';
import { useAppState } from '../../app/app-state.js';
import { EmptyState } from '../../ui/empty-state.js';
import { count } from '../../ui/format.js';
import { ClassChart } from './class-chart.js';
import { LibraryFilters } from './library-filters.js';
import { LibraryGrid } from './library-grid.js';
import { toLibraryFilter } from './library-query.js';
import { NO_FILTERS, useLibraryState } from './library-state.js';
import { SelectionBar } from './selection-bar.js';
import { useDebounced } from './use-debounced.js';
import { ExportDialog } from '../export/export-dialog.js';
import { ImportDialog } from '../import/import-dialog.js';
import { OpenItem } from './open-item.js';
import { setClassOrder } from '../review/box-colours.js';

export function LibraryScreen() {
  const { solution, setSolution, go } = useAppState();
  const { filters, setFilters, openId, setOpenId, focusKey, setFocusIndex, selection, session } =
    useLibraryState();
  const info = useCall('app.info', {});
  const service = useCall('service.state', {});
  const folders = useCall('folders.list', {});
  const search = useDebounced(filters.search, 250);
  const filter = toLibraryFilter(filters, solution, search);
  const [total, setTotal] = useState<number | null>(null);
  // Back from an item: the grid takes focus on the item reviewed last, for the keyboard.
  const cameBack = useRef(false);
  const back = useCallback(
    (position?: number) => {
      if (position !== undefined && position >= 0) setFocusIndex(position);
      cameBack.current = true;
      setOpenId(null);
    },
    [setOpenId, setFocusIndex],
  );
  const mediaBase = info.data?.mediaBase ?? '';
  const solutions = service.data?.solutions ?? [];
  const classes = solutions.find((s) => s.id === solution)?.classes ?? [];
  useEffect(() => setClassOrder(classes), [classes]);

  if (openId !== null) {
    return (
      <OpenItem
        id={openId}
        solution={solution}
        mediaBase={mediaBase}
        order={{ filter, sort: filters.sort, descending: filters.descending }}
        classes={classes}
        session={session}
        focusKey={focusKey}
        onOpen={setOpenId}
        onBack={back}
      />
    );
  }
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);
  return (
    <div className="screen library-screen">
      <div className="screen-head">
        <h1>Library</h1>
        <span className="muted" aria-live="polite">
          {total === null ? '' : `${count(total)} ${total === 1 ? 'file' : 'files'}`}
        </span>
        <label className="filter inline">
          <span>Solution</span>
          <select value={solution} onChange={(e) => setSolution(e.target.value)}>
            {solutions.length === 0 ? <option value={solution}>{solution}</option> : null}
            {solutions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <ImportDialog solution={solution} />
        <ExportDialog
          solution={solution}
          filter={filter}
          selection={[...selection.ids]}
          classes={classes}
        />
        {filtered ? (
          <button type="button" onClick={() => setFilters(() => NO_FILTERS)}>
            Clear filters
          </button>
        ) : null}
      </div>
      <LibraryFilters folders={folders.data ?? []} classes={classes} />
      <div className="library-body">
        <div className="library-main">
          <SelectionBar />
          {/* Asked at once, beside the first calls: only the thumbnails wait for app.info. */}
          <LibraryGrid
            filter={filter}
            sort={filters.sort}
            descending={filters.descending}
            mediaBase={info.data ? mediaBase : null}
            onOpen={(item) => setOpenId(item.id)}
            onTotal={setTotal}
            focusOnMount={cameBack.current}
          />
          {total === 0 ? (
            filtered ? (
              <EmptyState title="Nothing matches these filters">
                Loosen a filter or use Clear filters.
              </EmptyState>
            ) : (
              <EmptyState title="The library is empty">
                Add a folder of images and clips on the{' '}
                <button type="button" className="link-button" onClick={() => go('folders')}>
                  Folders
                </button>{' '}
                screen; its files appear here as they are listed.
              </EmptyState>
            )
          ) : null}
        </div>
        <ClassChart filter={filter} onPick={(label) => setFilters((f) => ({ ...f, label }))} />
      </div>
    </div>
  );
}
