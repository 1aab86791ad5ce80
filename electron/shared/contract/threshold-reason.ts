/**
 * Why a class has no score threshold at a target precision, in one sentence with its figures, as
 * the Quality screen, the auto-accept dialog and `labeldesk auto-accept` say it.
 */
import type { ClassThreshold } from './quality-schemas.js';

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

/**
 * `brief`: for a table that shows the best cut's boxes, precision and interval beside it, the
 * sentence without them.
 */
export function thresholdReason(c: ClassThreshold, target: number, brief = false): string {
  const range = c.interval ? ` (${pct(c.interval.low)}–${pct(c.interval.high)})` : '';
  const on = `${c.boxes} top-scored box${c.boxes === 1 ? '' : 'es'}`;
  switch (c.reason) {
    case 'ok':
      return '';
    case 'no-boxes':
      return 'No model boxes on reviewed files';
    case 'below-target':
      if (brief) return `Cannot reach ${pct(target)}`;
      return `Cannot reach ${pct(target)}: best ${pct(c.precision)}${range} on its ${on}`;
    case 'too-little-evidence':
      if (brief)
        return c.needed !== null
          ? `Too little evidence: about ${c.needed} boxes at this precision would carry it`
          : 'Too little evidence';
      return c.needed !== null
        ? `Too little evidence: ${pct(c.precision)}${range} on its ${on}; about ${c.needed} reviewed boxes at that precision would carry ${pct(target)}`
        : `Too little evidence: ${pct(c.precision)}${range} on its ${on}; more reviewed boxes may or may not carry ${pct(target)}`;
  }
}
