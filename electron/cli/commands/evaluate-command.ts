import type { Command } from 'commander';
import { openAppContext } from '../../application/app-context.js';
import { evaluateLibrary } from '../../application/evaluation/quality-handlers.js';
import { UsageError } from '../../application/usage-error.js';
import type { QualityReport } from '../../shared/contract/quality-schemas.js';
import { cocoJson, cocoTable } from '../coco-summary-view.js';
import { terminalText } from '../terminal-text.js';

function parseScore(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n >= 0 && n <= 1)) {
    throw new UsageError('--min-score takes a number from 0 to 1.');
  }
  return n;
}

/** Exactly the documented JSON shape, nothing more. */
const jsonOf = (r: QualityReport) => ({
  reviewedFiles: r.reviewedFiles,
  classes: r.classes.map(({ label, tp, fp, fn, precision, recall, ap50, ap }) => ({
    label,
    tp,
    fp,
    fn,
    precision,
    recall,
    ap50,
    ap,
  })),
  map50: r.map50,
  map: r.map,
});

const pct = (v: number) => (v < 0 ? '—' : `${(v * 100).toFixed(1)}%`);

function tableOf(r: QualityReport): string {
  const head = ['Class', 'TP', 'FP', 'Misses', 'Precision', 'Recall', 'AP50', 'AP'];
  const rows = r.classes.map((c) => [
    terminalText(c.label),
    String(c.tp),
    String(c.fp),
    String(c.fn),
    pct(c.precision),
    pct(c.recall),
    pct(c.ap50),
    pct(c.ap),
  ]);
  const widths = head.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] as string).length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ');
  return [
    `${r.reviewedFiles} reviewed files, solution ${terminalText(r.solution)}, IoU 0.5, minimum score ${r.minScore}`,
    line(head),
    ...rows.map(line),
    `mAP50 ${pct(r.map50)}, mAP (IoU 0.50:0.95) ${pct(r.map)}`,
  ].join('\n');
}

export function addEvaluateCommand(program: Command): void {
  program
    .command('evaluate')
    .description(
      'Measure the model on the reviewed files: precision, recall, AP50 and AP per class (offline).',
    )
    .option('--solution <id>', 'which solution’s boxes', 'objects')
    .option(
      '--min-score <s>',
      'count model boxes scored at least this (0–1): changes the counts, precision and recall, not AP50/AP, which rank every box by score as COCO does',
      parseScore,
      0,
    )
    .option(
      '--coco',
      'also COCOeval’s twelve summary figures (AP, AP50, AP75, AP and AR by area range, AR at 1/10/100 boxes; JSON field "coco")',
    )
    .option('--json', 'print JSON')
    .action(
      async (opts: { solution: string; minScore: number; coco?: boolean; json?: boolean }) => {
        const app = openAppContext();
        try {
          const report = await evaluateLibrary(app.store, {
            solution: opts.solution,
            minScore: opts.minScore,
            coco: opts.coco === true,
          });
          const coco = opts.coco && report.coco ? report.coco : undefined;
          if (opts.json) {
            const json = coco ? { ...jsonOf(report), coco: cocoJson(coco) } : jsonOf(report);
            process.stdout.write(`${JSON.stringify(json)}\n`);
          } else if (report.reviewedFiles === 0) {
            process.stdout.write(
              `No reviewed file with ${terminalText(opts.solution)} boxes yet: mark files reviewed in the app (M) first.\n`,
            );
          } else {
            process.stdout.write(`${tableOf(report)}\n`);
            if (coco) process.stdout.write(`\n${cocoTable(coco)}\n`);
          }
        } finally {
          app.close();
        }
      },
    );
}
