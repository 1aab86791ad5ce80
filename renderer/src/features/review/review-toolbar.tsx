/** The review screen's controls above the stage: tools, zoom, whole-image review, filters, undo. */
import { keysText } from '@shared/keyboard/registry.js';
import type { ReactNode } from 'react';

export interface ReviewFilters {
  threshold: number;
  /** Only this class shown; null: every class. */
  label: string | null;
  hidden: boolean;
}

interface ToolbarProps {
  filters: ReviewFilters;
  setFilters(update: (f: ReviewFilters) => ReviewFilters): void;
  labels: readonly string[];
  drawMode: boolean;
  /** False while there is nothing to draw on (a clip playing or between analysed frames). */
  canDraw?: boolean;
  onDraw(): void;
  onAccept(): void;
  onReject(): void;
  shownCount: number;
  canUndo: boolean;
  canRedo: boolean;
  onUndo(): void;
  onRedo(): void;
  onHelp(): void;
  children?: ReactNode;
}

export function ReviewToolbar(p: ToolbarProps) {
  const { filters, setFilters } = p;
  return (
    <div className="review-toolbar" role="toolbar" aria-label="Review">
      <button
        type="button"
        aria-pressed={p.drawMode}
        disabled={p.canDraw === false}
        onClick={p.onDraw}
        title={`${keysText('review.draw')}, then drag`}
      >
        Draw box
      </button>
      <button
        type="button"
        onClick={p.onAccept}
        disabled={p.shownCount === 0}
        title={`Accept the ${p.shownCount} boxes shown (score ≥ ${filters.threshold.toFixed(2)})`}
      >
        Accept
      </button>
      <button
        type="button"
        onClick={p.onReject}
        disabled={p.shownCount === 0}
        title={`Reject the ${p.shownCount} boxes shown`}
      >
        Reject
      </button>
      <label className="filter inline threshold">
        <span>Score threshold</span>
        <input
          type="range"
          aria-label="Score threshold"
          min={0}
          max={1}
          step={0.01}
          value={filters.threshold}
          onChange={(e) => {
            const threshold = Number(e.target.value);
            setFilters((f) => ({ ...f, threshold }));
          }}
        />
        <output>{filters.threshold.toFixed(2)}</output>
      </label>
      <label className="filter inline">
        <span>Class</span>
        <select
          value={filters.label ?? ''}
          onChange={(e) => {
            const label = e.target.value || null;
            setFilters((f) => ({ ...f, label }));
          }}
        >
          <option value="">All classes</option>
          {p.labels.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label className="filter inline">
        <input
          type="checkbox"
          checked={filters.hidden}
          onChange={(e) => {
            const hidden = e.target.checked;
            setFilters((f) => ({ ...f, hidden }));
          }}
        />
        <span>Hide boxes</span>
      </label>
      <span className="toolbar-gap" />
      <button
        type="button"
        onClick={p.onUndo}
        disabled={!p.canUndo}
        title={keysText('review.undo')}
      >
        Undo
      </button>
      <button
        type="button"
        onClick={p.onRedo}
        disabled={!p.canRedo}
        title={keysText('review.redo')}
      >
        Redo
      </button>
      {p.children}
      <button
        type="button"
        onClick={p.onHelp}
        aria-label="Keyboard shortcuts"
        title={keysText('app.help')}
      >
        ?
      </button>
    </div>
  );
}
