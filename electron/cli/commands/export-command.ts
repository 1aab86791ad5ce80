import type { Command } from 'commander';
import type { LibraryStore } from '../../core/store/store-types.js';
import { openAppContext } from '../app-context.js';
import { EXPORT_FORMATS, exportSelection, type ExportFormat } from '../export-selection.js';
import { CliUsageError, EMBEDDED_ACCOUNT } from '../service-connection.js';

interface ExportOptions {
  format: ExportFormat;
  out: string;
  solution: string;
  service?: string;
  onlyAccepted?: boolean;
  minScore?: number;
  classes?: string;
}

function parseScore(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new CliUsageError('--min-score takes a number from 0 to 1.');
  return n;
}

/** The solution's class list from the newest cached catalog, so class ids follow the service's order. */
function cachedClasses(
  store: LibraryStore,
  serviceUrl: string,
  solution: string,
): string[] | undefined {
  const snapshot = store.catalog.latest(serviceUrl);
  if (!snapshot) return undefined;
  const catalog = JSON.parse(snapshot.body) as { solutions?: { id: string; classes?: string[] }[] };
  return catalog.solutions?.find((s) => s.id === solution)?.classes;
}

export function addExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      'Write the stored boxes as COCO, YOLO, Pascal VOC, CSV or MOT (offline, from the cache).',
    )
    .requiredOption('--format <format>', EXPORT_FORMATS.join('|'))
    .requiredOption('--out <path>', 'a file (coco, csv) or a new or empty folder (yolo, voc, mot)')
    .option('--solution <id>', 'which solution’s boxes', 'objects')
    .option('--service <url>', 'whose catalog names the class ids (default: the embedded service)')
    .option('--only-accepted', 'only boxes a reviewer accepted')
    .option('--min-score <s>', 'drop boxes scored below this (0–1)', parseScore)
    .option('--classes <list>', 'only these labels, comma-separated')
    .action(async (opts: ExportOptions) => {
      if (!EXPORT_FORMATS.includes(opts.format)) {
        throw new CliUsageError(`--format takes one of ${EXPORT_FORMATS.join(', ')}.`);
      }
      const app = openAppContext();
      try {
        const classes = cachedClasses(app.store, opts.service ?? EMBEDDED_ACCOUNT, opts.solution);
        const summary = await exportSelection(app.store, undefined, {
          format: opts.format,
          out: opts.out,
          solution: classes ? { id: opts.solution, classes } : opts.solution,
          query: {
            ...(opts.onlyAccepted ? { onlyAccepted: true } : {}),
            ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
            ...(opts.classes
              ? {
                  classes: opts.classes
                    .split(',')
                    .map((c) => c.trim())
                    .filter(Boolean),
                }
              : {}),
          },
        });
        const skipped = summary.skipped
          ? ` (${summary.skipped} skipped: not representable as ${opts.format})`
          : '';
        process.stdout.write(
          `Exported ${summary.boxes} boxes from ${summary.files} files to ${opts.out}${skipped}\n`,
        );
      } finally {
        app.close();
      }
    });
}
