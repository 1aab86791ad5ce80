/** `labeldesk evaluate --coco`: COCOeval's twelve summary figures as a table and as JSON. */
import { COCO_STATS } from '../shared/coco-stats.js';
import type { QualityReport } from '../shared/contract/quality-schemas.js';
import { terminalText } from './terminal-text.js';

type Coco = NonNullable<QualityReport['coco']>;

/** The JSON field `coco`: each figure by name (-1 as COCO's: nothing to measure), and per class. */
export function cocoJson(coco: Coco) {
  return {
    ...Object.fromEntries(COCO_STATS.map((s, i) => [s.key, coco.stats[i] ?? -1])),
    classes: coco.classes.map((c) => ({ label: c.label, ranges: c.ranges })),
  };
}

const fixed = (v: number | undefined) => (v === undefined || v < 0 ? '—' : v.toFixed(3));

/** As COCOeval's summarize() lays them out, with the short name first; per class AP by range. */
export function cocoTable(coco: Coco): string {
  const summary = COCO_STATS.map((s, i) => {
    const title = s.kind === 'AP' ? 'Average Precision  (AP)' : 'Average Recall     (AR)';
    const iou = s.iou === '0.50:0.95' ? s.iou : `     ${s.iou}`;
    return `${s.name.padEnd(9)}  ${title} @[ IoU=${iou} | area=${s.area.padStart(6)} | maxDets=${String(s.maxDets).padStart(3)} ] = ${fixed(coco.stats[i])}`;
  });
  const name = Math.max(5, ...coco.classes.map((c) => terminalText(c.label).length));
  const head = `${'Class'.padEnd(name)}  ${['AP', 'AP small', 'AP medium', 'AP large', 'AR@100'].map((h) => h.padStart(9)).join('  ')}`;
  const rows = coco.classes.map((c) =>
    [
      terminalText(c.label).padEnd(name),
      ...[c.ranges.all.ap, c.ranges.small.ap, c.ranges.medium.ap, c.ranges.large.ap].map((v) =>
        fixed(v).padStart(9),
      ),
      fixed(c.ranges.all.ar[2]).padStart(9),
    ].join('  '),
  );
  return [
    'COCO summary (COCOeval on the same boxes; — where nothing is in range):',
    ...summary,
    '',
    head,
    ...rows,
  ].join('\n');
}
