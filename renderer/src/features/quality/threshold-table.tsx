/**
 * Per-class score thresholds for the target precision ("Score thresholds"): each with the reviewed
 * boxes behind it and the 95 % Wilson interval; a class the evidence does not carry says why, beside
 * its best cut's figures.
 */
import { thresholdReason, type ClassThreshold } from '@shared/contract/index.js';
import { count } from '../../ui/format.js';
import { percent } from './quality-format.js';
import { TableHead, type Column } from './table-head.js';

const COLUMNS: Column[] = [
  'Class',
  'Threshold',
  { name: 'Reviewed boxes', title: 'Reviewed model boxes at or above the threshold' },
  'Precision',
  '95 % interval',
];

export function ThresholdTable({
  rows,
  target,
}: {
  rows: readonly ClassThreshold[];
  target: number;
}) {
  return (
    <section aria-labelledby="thresholds-title">
      <h2 id="thresholds-title">Score thresholds for {percent(target)} precision</h2>
      <table className="data-table quality-table" aria-label="Score thresholds">
        <TableHead columns={COLUMNS} />
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              {r.threshold === null ? (
                <td className="reason">{thresholdReason(r, target, true)}</td>
              ) : (
                <td className="num">{r.threshold.toFixed(2)}</td>
              )}
              <td className="num">{count(r.boxes)}</td>
              <td className="num">{percent(r.precision)}</td>
              <td className="num">
                {r.interval ? `${percent(r.interval.low)} – ${percent(r.interval.high)}` : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
