/** The per-class figures: a table named "Model quality", one row per class, overall in the foot. */
import type { ClassQuality } from '../../../../electron/shared/contract/index.js';
import { count } from '../../ui/format.js';
import { percent } from './quality-format.js';

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
      <thead>
        <tr>
          <th scope="col">Class</th>
          <th scope="col" className="num">
            Precision
          </th>
          <th scope="col" className="num">
            Recall
          </th>
          <th scope="col" className="num">
            AP50
          </th>
          <th scope="col" className="num">
            AP
          </th>
          <th scope="col" className="num" title="True positives at IoU 0.5">
            Right
          </th>
          <th scope="col" className="num" title="Model boxes matching nothing a person kept">
            False positives
          </th>
          <th scope="col" className="num" title="Boxes a person kept that the model did not find">
            Misses
          </th>
        </tr>
      </thead>
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
