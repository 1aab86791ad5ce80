/** Boxes per class for the current filter, as plain SVG bars; a bar filters by its class. */
import type { LibraryFilter } from '@shared/contract/index.js';
import { useCall } from '../../api/use-call.js';
import { count } from '../../ui/format.js';

const SHOWN = 12;

export function ClassChart({
  filter,
  onPick,
}: {
  filter: LibraryFilter;
  onPick(label: string): void;
}) {
  const counts = useCall('library.classCounts', filter, { placeholderData: (prev) => prev });
  const rows = [...(counts.data ?? [])].sort((a, b) => b.count - a.count);
  const max = rows[0]?.count ?? 0;
  return (
    <section className="class-chart" aria-labelledby="class-chart-title">
      <h2 id="class-chart-title">Boxes per class</h2>
      {rows.length === 0 ? (
        <p className="muted small">{counts.isPending ? 'Counting…' : 'No boxes in this view.'}</p>
      ) : (
        <ul>
          {rows.slice(0, SHOWN).map((r) => (
            <li key={r.label}>
              <button
                type="button"
                className="chart-row"
                title={`Show only ${r.label}`}
                onClick={() => onPick(r.label)}
              >
                <span className="chart-label">{r.label}</span>
                <svg
                  className="chart-bar"
                  viewBox="0 0 100 10"
                  preserveAspectRatio="none"
                  aria-hidden="true"
                >
                  <rect x="0" y="0" height="10" width={max ? (r.count / max) * 100 : 0} />
                </svg>
                <span className="chart-count">{count(r.count)}</span>
              </button>
            </li>
          ))}
          {rows.length > SHOWN ? (
            <li className="muted small">and {rows.length - SHOWN} more classes</li>
          ) : null}
        </ul>
      )}
    </section>
  );
}
