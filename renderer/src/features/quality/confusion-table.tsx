/**
 * Which class the model said (columns) where a person said another (rows), at IoU 0.5. With many
 * classes (COCO has 80) the matrix is large: the most frequent confusions are listed first, the
 * classes most involved in confusions come first in the matrix, and its headers stay in view
 * while it scrolls both ways.
 */
import type { QualityReport } from '@shared/contract/index.js';
import { count } from '../../ui/format.js';

/** How many of the most frequent confusions are named above the matrix. */
const TOP = 10;

interface Pair {
  truth: string;
  model: string;
  n: number;
}

/** The off-diagonal cells with a count, the largest first (ties by name, so the order is stable). */
function confusedPairs(rows: string[], cols: string[], counts: number[][]): Pair[] {
  const pairs: Pair[] = [];
  rows.forEach((truth, i) =>
    cols.forEach((model, j) => {
      const n = counts[i]?.[j] ?? 0;
      if (i !== j && n > 0) pairs.push({ truth, model, n });
    }),
  );
  return pairs.sort(
    (a, b) => b.n - a.n || a.truth.localeCompare(b.truth) || a.model.localeCompare(b.model),
  );
}

/** Class indices, the most confused first (row and column together), then by name. */
function byInvolvement(labels: readonly string[], counts: number[][]): number[] {
  const total = labels.map((_, k) => {
    let n = 0;
    counts.forEach((row, i) =>
      row.forEach((c, j) => {
        if (i !== j && (i === k || j === k)) n += c;
      }),
    );
    return n;
  });
  return labels
    .map((_, k) => k)
    .sort(
      (a, b) =>
        (total[b] ?? 0) - (total[a] ?? 0) || (labels[a] ?? '').localeCompare(labels[b] ?? ''),
    );
}

export function ConfusionTable({ confusion }: { confusion: QualityReport['confusion'] }) {
  const { labels, counts } = confusion;
  if (labels.length === 0) return null;
  const nothing = labels.length;
  const order = [...byInvolvement(labels, counts), nothing];
  const rowName = (i: number) =>
    i === nothing ? 'nothing (model box on nothing)' : (labels[i] ?? '');
  const colName = (j: number) => (j === nothing ? 'nothing (missed)' : (labels[j] ?? ''));
  const top = confusedPairs(order.map(rowName), order.map(colName), permuted(counts, order));
  return (
    <section className="confusion" aria-labelledby="confusion-title">
      <h2 id="confusion-title">Confusions</h2>
      {top.length > 0 ? (
        <ol className="top-confusions small" aria-label="Most frequent confusions">
          {top.slice(0, TOP).map((p) => (
            <li key={`${p.truth}\u0000${p.model}`}>
              <strong>{count(p.n)}</strong> · person said <em>{p.truth}</em>, model said{' '}
              <em>{p.model}</em>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted small">No confusion: every reviewed box was found as its class.</p>
      )}
      <div className="confusion-scroll">
        <table className="data-table confusion-table" aria-label="Confusions">
          <thead>
            <tr>
              <th scope="col" className="corner">
                Person said ↓ · model said →
              </th>
              {order.map((j) => (
                <th key={j} scope="col" className="num" title={colName(j)}>
                  {colName(j)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {order.map((i) => (
              <tr key={i}>
                <th scope="row" title={rowName(i)}>
                  {rowName(i)}
                </th>
                {order.map((j) => {
                  const n = counts[i]?.[j] ?? 0;
                  const kind = i === j ? 'right' : n > 0 ? 'wrong' : 'zero';
                  return (
                    <td key={j} className={`num cell-${kind}`}>
                      {n > 0 ? count(n) : ''}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The counts with rows and columns in `order`. */
function permuted(counts: number[][], order: number[]): number[][] {
  return order.map((i) => order.map((j) => counts[i]?.[j] ?? 0));
}
