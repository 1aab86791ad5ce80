import type { Command } from 'commander';
import { resolve } from 'node:path';
import { openAppContext } from '../../application/app-context.js';
import { readOnlyRefusal } from '../../application/read-only-home.js';
import { IMPORT_FORMATS, type ImportFormat } from '../../application/import-labels.js';
import { importLabelsInWorker } from '../../application/import-labels-in-worker.js';
import { UsageError } from '../../application/service-connection.js';
import { EXIT } from '../run-summary.js';
import { terminalText } from '../terminal-text.js';

interface ImportCliOptions {
  format: ImportFormat;
  solution: string;
  json?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function addImportCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('import')
    .description(
      'Make existing COCO, YOLO, Pascal VOC or CSV labels the labels of the library’s files (as a person’s accepted boxes).',
    )
    .argument('<source>', 'a label file (coco, csv, voc) or folder (yolo, voc, or several files)')
    .requiredOption('--format <format>', IMPORT_FORMATS.join('|'))
    .option('--solution <id>', 'whose labels these are', 'objects')
    .option('--json', 'print JSON')
    .action(async (source: string, opts: ImportCliOptions) => {
      if (!IMPORT_FORMATS.includes(opts.format)) {
        throw new UsageError(`--format takes one of ${IMPORT_FORMATS.join(', ')}.`);
      }
      const app = openAppContext();
      try {
        if (app.readOnly) {
          throw new UsageError(readOnlyRefusal(app.home, app.readOnly, 'imported labels'));
        }
        const summary = await importLabelsInWorker(app.store, {
          format: opts.format,
          source: resolve(source),
          solution: opts.solution,
        });
        if (opts.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else {
          const unchanged = summary.unchanged ? ` (${summary.unchanged} already so)` : '';
          process.stdout.write(
            `Imported ${plural(summary.boxes, 'box', 'boxes')} into ${plural(summary.files + summary.unchanged, 'file')}${unchanged}; ${plural(summary.issues.length, 'issue')}\n`,
          );
          for (const i of summary.issues) {
            process.stdout.write(`  ${i.code}  ${terminalText(i.message)}\n`);
          }
        }
        setExit(summary.issues.length ? EXIT.failed : EXIT.ok);
      } finally {
        app.close();
      }
    });
}
