import type { Command } from 'commander';
import { resolve } from 'node:path';
import { openAppContext } from '../../application/app-context.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../application/export-selection.js';
import {
  cachedSolutions,
  carriesClipFrames,
  carriesInterpolation,
  runExport,
  unknownClasses,
} from '../../application/export-use-case.js';
import { defaultSolution } from '../../application/export-solutions.js';
import { UsageError, EMBEDDED_ACCOUNT } from '../../application/service-connection.js';
import { InterruptedError } from '../hidden-input.js';
import { interruptions } from '../interruptions.js';
import { terminalText } from '../terminal-text.js';

interface ExportOptions {
  format: ExportFormat;
  out: string;
  solution?: string;
  service?: string;
  onlyAccepted?: boolean;
  byPerson?: boolean;
  minScore?: number;
  classes?: string;
  force?: boolean;
  clipFrames?: string;
  interpolate?: boolean;
}

function parseScore(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new UsageError('--min-score takes a number from 0 to 1.');
  return n;
}

export function addExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      "Write the stored boxes as COCO, YOLO, Pascal VOC, CSV or MOT, or clips' events as CSV (offline, from the cache).",
    )
    .requiredOption('--format <format>', EXPORT_FORMATS.join('|'))
    .requiredOption(
      '--out <path>',
      'a file (coco, csv, events) or a new or empty folder (yolo, voc, mot)',
    )
    .option(
      '--solution <id>',
      'which solution’s boxes (default: every solution labelled in the library, joined per file)',
    )
    .option('--service <url>', 'whose catalog names the class ids (default: the embedded service)')
    .option('--only-accepted', 'only accepted boxes (by a person or by an auto-accept rule)')
    .option('--by-person', 'with --only-accepted: leave out boxes accepted by rule')
    .option(
      '--min-score <s>',
      'drop boxes scored below this (0–1; default: the library’s minimum score, see min-score)',
      parseScore,
    )
    .option('--classes <list>', 'only these labels, comma-separated')
    .option('--force', 'replace an existing export file, or a folder holding a previous export')
    .option(
      '--clip-frames <dir>',
      'coco/yolo/voc: write clips’ analysed frames with boxes as JPEGs here and export them as images',
    )
    .option(
      '--interpolate',
      'mot/csv/--clip-frames: every frame of each clip at its own rate, tracks interpolated between their boxes',
    )
    .action(async (opts: ExportOptions) => {
      if (!EXPORT_FORMATS.includes(opts.format)) {
        throw new UsageError(`--format takes one of ${EXPORT_FORMATS.join(', ')}.`);
      }
      const wanted = opts.classes
        ?.split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      if (opts.clipFrames && !carriesClipFrames(opts.format)) {
        throw new UsageError('--clip-frames works with coco, yolo and voc.');
      }
      if (opts.interpolate && !carriesInterpolation(opts.format, Boolean(opts.clipFrames))) {
        throw new UsageError('--interpolate works with mot, csv, or --clip-frames.');
      }
      if (opts.byPerson && !opts.onlyAccepted) {
        throw new UsageError('--by-person works with --only-accepted.');
      }
      const framesDir = opts.clipFrames ? resolve(opts.clipFrames) : undefined;
      const app = openAppContext();
      // Ctrl-C or SIGTERM: the export stops, its temp file is removed and the target is untouched.
      const ctrlC = interruptions((line) => process.stderr.write(`${line}\n`));
      try {
        const cached = cachedSolutions(app.store, opts.service ?? EMBEDDED_ACCOUNT);
        const unknown = wanted ? unknownClasses(wanted, cached, !opts.service) : [];
        if (unknown.length) {
          throw new UsageError(
            `--classes: no solution has ${unknown.map((c) => JSON.stringify(c)).join(', ')}.`,
          );
        }
        const solution = opts.solution ?? defaultSolution(app.store, undefined);
        const summary = await runExport(app.store, undefined, {
          format: opts.format,
          out: opts.out,
          solution,
          catalogClasses: cached?.find((s) => s.id === solution)?.classes,
          onlyAccepted: opts.onlyAccepted,
          byPerson: opts.byPerson,
          minScore: opts.minScore,
          classes: wanted,
          replace: opts.force,
          framesDir,
          interpolate: opts.interpolate,
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
