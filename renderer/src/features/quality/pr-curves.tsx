/**
 * A precision–recall curve per class (COCO's interpolated precision at recall 0…1, IoU 0.5), as
 * plain SVG: one small chart each with its axes' ticks, named for screen readers by its class and
 * AP50. The tiles wrap to the screen's width.
 */
import type { ClassQuality } from '@shared/contract/index.js';
import { percent } from './quality-format.js';

const W = 176;
const H = 128;
/** Room for the precision ticks on the left and the recall ticks below. */
const LEFT = 26;
const BOTTOM = 16;
const PAD = 4;
const PLOT_W = W - LEFT - PAD;
const PLOT_H = H - BOTTOM - PAD;
const TICKS = [0, 0.5, 1];

const xAt = (recall: number) => LEFT + recall * PLOT_W;
const yAt = (precision: number) => PAD + (1 - precision) * PLOT_H;

function points(curve: readonly number[]): string {
  const last = curve.length - 1;
  return curve.map((p, i) => `${xAt(i / last).toFixed(1)},${yAt(p).toFixed(1)}`).join(' ');
}

function Axes() {
  return (
    <g className="pr-axes" aria-hidden="true">
      <rect className="pr-frame" x={LEFT} y={PAD} width={PLOT_W} height={PLOT_H} />
      {TICKS.map((t) => (
        <g key={t}>
          <line className="pr-tick" x1={LEFT - 3} x2={LEFT} y1={yAt(t)} y2={yAt(t)} />
          <text className="pr-tick-label" x={LEFT - 5} y={yAt(t) + 3} textAnchor="end">
            {t}
          </text>
          <line
            className="pr-tick"
            x1={xAt(t)}
            x2={xAt(t)}
            y1={PAD + PLOT_H}
            y2={PAD + PLOT_H + 3}
          />
          <text
            className="pr-tick-label"
            x={xAt(t)}
            y={H - 2}
            textAnchor={t === 0 ? 'start' : t === 1 ? 'end' : 'middle'}
          >
            {t}
          </text>
        </g>
      ))}
    </g>
  );
}

export function PrCurves({ classes }: { classes: readonly ClassQuality[] }) {
  const drawn = classes.filter((c) => c.curve.length > 1);
  if (drawn.length === 0) return null;
  return (
    <section className="pr-curves" aria-labelledby="pr-title">
      <h2 id="pr-title">Precision–recall curves</h2>
      <ul>
        {drawn.map((c) => (
          <li key={c.label}>
            <figure>
              <svg
                viewBox={`0 0 ${W} ${H}`}
                width={W}
                height={H}
                role="img"
                aria-label={`Precision–recall curve of ${c.label}, AP50 ${percent(c.ap50)}`}
              >
                <Axes />
                <polyline className="pr-line" points={points(c.curve)} />
              </svg>
              <figcaption title={c.label}>
                {c.label} <span className="muted">AP50 {percent(c.ap50)}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
      <p className="muted small">Across: recall 0 → 1. Up: precision 0 → 1.</p>
    </section>
  );
}
