/** One tile of the library grid: thumbnail, name and badges; named by file name first. */
import { memo, type MouseEvent } from 'react';
import type { LibraryItem } from '@shared/contract/index.js';
import { tileLabel } from './tile-label.js';

interface GridTileProps {
  index: number;
  column: number;
  item: LibraryItem | undefined;
  /** null until known: no thumbnail is asked for at a wrong address. */
  mediaBase: string | null;
  selected: boolean;
  focused: boolean;
  onClick(e: MouseEvent, index: number, item: LibraryItem): void;
  onOpen(item: LibraryItem): void;
}

export const GridTile = memo(function GridTile(p: GridTileProps) {
  const { item } = p;
  if (!item) {
    return (
      <div
        role="gridcell"
        aria-colindex={p.column + 1}
        aria-label="Loading"
        className="tile tile-loading"
        data-index={p.index}
        tabIndex={p.focused ? 0 : -1}
      />
    );
  }
  return (
    <div
      role="gridcell"
      aria-colindex={p.column + 1}
      aria-label={tileLabel(item)}
      aria-selected={p.selected}
      className={`tile status-${item.status}${p.selected ? ' selected' : ''}`}
      data-index={p.index}
      tabIndex={p.focused ? 0 : -1}
      title={item.path}
      onClick={(e) => p.onClick(e, p.index, item)}
      onDoubleClick={() => p.onOpen(item)}
    >
      <div className="tile-thumb">
        {p.mediaBase !== null ? (
          <img
            src={`${p.mediaBase}thumb/${item.id}`}
            alt=""
            loading="lazy"
            decoding="async"
            draggable={false}
            onError={(e) => e.currentTarget.classList.add('broken')}
          />
        ) : null}
        {item.kind === 'video' ? <span className="tile-kind">clip</span> : null}
      </div>
      <div className="tile-name">{item.name}</div>
      <div className="tile-badges" aria-hidden="true">
        {item.boxes !== null ? (
          <span className="badge badge-boxes">
            {item.boxes} {item.boxes === 1 ? 'box' : 'boxes'}
          </span>
        ) : null}
        {item.status !== 'labelled' || item.boxes === null ? (
          <span className={`badge badge-status badge-${item.status}`}>{item.status}</span>
        ) : null}
        {item.reviewed ? (
          <span className="badge badge-reviewed">reviewed</span>
        ) : item.pendingReview > 0 ? (
          <span className="badge badge-review">{item.pendingReview} to review</span>
        ) : null}
        {item.byRule > 0 ? (
          <span className="badge badge-rule" title="Accepted by an auto-accept rule">
            {item.byRule} by rule
          </span>
        ) : null}
      </div>
    </div>
  );
});
