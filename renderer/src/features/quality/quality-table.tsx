/** The per-class figures: a table named "Model quality", one row per class, overall in the foot. */
import type { ClassQuality } from '@shared/contract/index.js';
import { count } from '../../ui/format.js';
import { percent } from './quality-format.js';
import { TableHead, type Column } from './table-head.js';

const COLUMNS: Column[] = [
  'Class',
  'Precision',
  'Recall',
  'AP50',
  'AP',
  { name: 'Right', title: 'True positives at IoU 0.5' },
  { name: 'False positives', title: 'Model boxes matching nothing a person kept' },
  { name: 'Misses', title: 'Boxes a person kept that the model did not find' },
];

export function QualityTable({
  classes,
  map50,
  map,
}: {
  classes: readonly ClassQuality[];
  map50: number;
  map: number;
}) {
  return (
    <table className="data-table quality-table" aria-label="Model quality">
      <TableHead columns={COLUMNS} />
      <tbody>
        {classes.map((c) => (
          <tr key={c.label}>
            <th scope="row">{c.label}</th>
            <td className="num">{percent(c.precision)}</td>
            <td className="num">{percent(c.recall)}</td>
            <td className="num">{percent(c.ap50)}</td>
            <td className="num">{percent(c.ap)}</td>
            <td className="num">{count(c.tp)}</td>
            <td className="num">{count(c.fp)}</td>
            <td className="num">{count(c.fn)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Mean over classes</th>
          <td />
          <td />
          <td className="num">{percent(map50)}</td>
          <td className="num">{percent(map)}</td>
          <td colSpan={3} />
        </tr>
      </tfoot>
    </table>
  );
}
