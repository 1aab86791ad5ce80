/**
 * "COCO summary": COCOeval's twelve figures, computed only once a person opens the disclosure
 * (every area range matches the boxes again, so the default evaluation does not pay for them).
 * AP and AR side by side, row by row as COCO pairs them; each figure's IoU, area and box limit
 * in its tooltip.
 */
import { useId, useState } from 'react';
import { COCO_STATS, type CocoStatName } from '@shared/coco-stats.js';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { percent } from './quality-format.js';

const AP = COCO_STATS.filter((s) => s.kind === 'AP');
const AR = COCO_STATS.filter((s) => s.kind === 'AR');

const meaning = (s: CocoStatName) =>
  `${s.kind === 'AP' ? 'Average precision' : 'Average recall'} at IoU ${s.iou}, ${s.area === 'all' ? 'boxes of every size' : `${s.area} boxes`}, up to ${s.maxDets} model boxes per image`;

function Figure({ stat, stats }: { stat: CocoStatName; stats: readonly number[] }) {
  return (
    <>
      <th scope="row" title={meaning(stat)}>
        {stat.name}
      </th>
      <td className="num">{percent(stats[COCO_STATS.indexOf(stat)] ?? -1)}</td>
    </>
  );
}

export function CocoSummaryPanel({ solution, target }: { solution: string; target: number }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  // At score 0: COCO ranks every box, so the slider would only compute the same figures again.
  const q = useCall(
    'quality.evaluate',
    { solution, minScore: 0, targetPrecision: target, coco: true },
    { enabled: open },
  );
  const stats = q.data?.coco?.stats;
  return (
    <section className="coco-summary">
      <button
        type="button"
        className="link-button coco-summary-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> COCO summary
      </button>
      {open ? (
        <div id={id}>
          {q.isError ? (
            <ErrorNote error={q.error} title="Could not compute the COCO summary" />
          ) : null}
          {!stats && !q.isError ? (
            <p className="muted small" aria-live="polite">
              Computing COCO’s figures…
            </p>
          ) : null}
          {stats ? (
            <>
              <p className="muted small">
                As pycocotools’ COCOeval computes them: IoU 0.50:0.95 and up to 100 model boxes per
                image unless named; small under 32², large over 96² pixels; — where nothing is in
                range.
              </p>
              <table className="data-table coco-summary-table" aria-label="COCO summary">
                <thead>
                  <tr>
                    <th scope="col">Precision</th>
                    <th scope="col" className="num">
                      Value
                    </th>
                    <th scope="col">Recall</th>
                    <th scope="col" className="num">
                      Value
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {AP.map((ap, i) => (
                    <tr key={ap.key}>
                      <Figure stat={ap} stats={stats} />
                      <Figure stat={AR[i] as CocoStatName} stats={stats} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
