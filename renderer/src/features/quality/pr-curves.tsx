/**
 * A precision–recall curve per class (COCO's interpolated precision at recall 0…1, IoU 0.5), as
 * plain SVG: one small chart each, named for screen readers by its class and AP50.
 */
import type { ClassQuality } from '@shared/contract/index.js';
import { percent } from './quality-format.js';

const W = 160;
const H = 110;
const PAD = 4;

function points(curve: readonly number[]): string {
  const last = curve.length - 1;
  return curve
    .map((p, i) => {
      const x = PAD + (i / last) * (W - 2 * PAD);
      const y = H - PAD - p * (H - 2 * PAD);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
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
                <rect
                  className="pr-frame"
                  x={PAD}
                  y={PAD}
                  width={W - 2 * PAD}
                  height={H - 2 * PAD}
                />
                <polyline className="pr-line" points={points(c.curve)} />
              </svg>
              <figcaption>
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
