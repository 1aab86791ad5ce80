import type { Command } from 'commander';
import { resolve } from 'node:path';
import { withClipFrames } from '../../core/review/clip-frames.js';
import type { LibraryStore } from '../../core/store/store-types.js';
import { SOLUTIONS } from '../../local-service/solutions.js';
import { openAppContext } from '../../application/app-context.js';
import {
  EXPORT_FORMATS,
  exportSelection,
  type ExportFormat,
} from '../../application/export-selection.js';
import { UsageError, EMBEDDED_ACCOUNT } from '../../application/service-connection.js';
import { InterruptedError } from '../hidden-input.js';
import { interruptions } from '../interruptions.js';
import { terminalText } from '../terminal-text.js';

interface ExportOptions {
  format: ExportFormat;
  out: string;
  solution: string;
  service?: string;
  onlyAccepted?: boolean;
  minScore?: number;
  classes?: string;
  force?: boolean;
  clipFrames?: string;
}

interface CachedCatalog {
  solutions?: { id: string; classes?: string[] }[];
}

function parseScore(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new UsageError('--min-score takes a number from 0 to 1.');
  return n;
}

function cachedCatalog(store: LibraryStore, serviceUrl: string): CachedCatalog | undefined {
  const snapshot = store.catalog.latest(serviceUrl);
  return snapshot ? (JSON.parse(snapshot.body) as CachedCatalog) : undefined;
}

/**
 * `--classes` names every solution of the service knows (its cached catalog; for the embedded
 * service its own list when nothing is cached). A name none of them has is a typo: refused.
 */
function checkClasses(
  wanted: readonly string[],
  catalog: CachedCatalog | undefined,
  embedded: boolean,
): void {
  const solutions = catalog?.solutions ?? (embedded ? SOLUTIONS : undefined);
  if (!solutions) return; // a hosted service never seen: nothing to check against
  const known = new Set(solutions.flatMap((s) => s.classes ?? []));
  const unknown = wanted.filter((c) => !known.has(c));
  if (unknown.length) {
    throw new UsageError(
      `--classes: no solution has ${unknown.map((c) => JSON.stringify(c)).join(', ')}.`,
    );
  }
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
    .option('--force', 'replace an existing export file, or a folder holding a previous export')
    .option(
      '--clip-frames <dir>',
      'coco/yolo/voc: write clips’ analysed frames with boxes as JPEGs here and export them as images',
    )
    .action(async (opts: ExportOptions) => {
      if (!EXPORT_FORMATS.includes(opts.format)) {
        throw new UsageError(`--format takes one of ${EXPORT_FORMATS.join(', ')}.`);
      }
      const wanted = opts.classes
        ?.split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      if (opts.clipFrames && !['coco', 'yolo', 'voc'].includes(opts.format)) {
        throw new UsageError('--clip-frames works with coco, yolo and voc.');
      }
      const framesDir = opts.clipFrames ? resolve(opts.clipFrames) : undefined;
      const app = openAppContext();
      // Ctrl-C or SIGTERM: the export stops, its temp file is removed and the target is untouched.
      const ctrlC = interruptions((line) => process.stderr.write(`${line}\n`));
      try {
        const catalog = cachedCatalog(app.store, opts.service ?? EMBEDDED_ACCOUNT);
        if (wanted) checkClasses(wanted, catalog, !opts.service);
        const classes = catalog?.solutions?.find((s) => s.id === opts.solution)?.classes;
        const summary = await exportSelection(app.store, undefined, {
          format: opts.format,
          out: opts.out,
          solution: classes ? { id: opts.solution, classes } : opts.solution,
          ...(opts.force ? { replace: true } : {}),
          ...(framesDir
            ? {
                transform: (items) => withClipFrames(items, { dir: framesDir, signal: ctrlC.stop }),
              }
            : {}),
          query: {
            ...(opts.onlyAccepted ? { onlyAccepted: true } : {}),
            ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
            ...(wanted ? { classes: wanted } : {}),
          },
          signal: ctrlC.stop,
        }).catch((err: unknown) => {
          if (ctrlC.stop.aborted)
            throw new InterruptedError('Export stopped: nothing was written.');
          throw err;
        });
        const skipped = summary.skipped
          ? ` (${summary.skipped} skipped: not representable as ${opts.format})`
          : '';
        process.stdout.write(
          `Exported ${summary.boxes} boxes from ${summary.files} files to ${terminalText(opts.out)}${skipped}\n`,
        );
      } finally {
        ctrlC.dispose();
        app.close();
      }
    });
}
