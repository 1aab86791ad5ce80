/** Which class the model said (columns) where a person said another (rows), at IoU 0.5. */
import type { QualityReport } from '@shared/contract/index.js';
import { count } from '../../ui/format.js';

export function ConfusionTable({ confusion }: { confusion: QualityReport['confusion'] }) {
  const { labels, counts } = confusion;
  if (labels.length === 0) return null;
  const rowNames = [...labels, 'nothing (model box on nothing)'];
  const colNames = [...labels, 'nothing (missed)'];
  return (
    <section className="confusion" aria-labelledby="confusion-title">
      <h2 id="confusion-title">Confusions</h2>
      <div className="confusion-scroll">
        <table className="data-table confusion-table" aria-label="Confusions">
          <thead>
            <tr>
              <th scope="col">Person said ↓ · model said →</th>
              {colNames.map((c) => (
                <th key={c} scope="col" className="num">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rowNames.map((r, i) => (
              <tr key={r}>
                <th scope="row">{r}</th>
                {colNames.map((c, j) => {
                  const n = counts[i]?.[j] ?? 0;
                  const kind = i === j ? 'right' : n > 0 ? 'wrong' : 'zero';
                  return (
                    <td key={c} className={`num cell-${kind}`}>
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
