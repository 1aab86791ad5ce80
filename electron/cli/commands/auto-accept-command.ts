import type { Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { openAppContext } from '../../application/app-context.js';
import { autoAccept, undoAutoAccept } from '../../application/evaluation/auto-accept.js';
import { storedTarget } from '../../application/evaluation/quality-target.js';
import { readOnlyRefusal } from '../../application/read-only-home.js';
import { UsageError } from '../../application/usage-error.js';
import type { AutoAcceptResult } from '../../shared/contract/quality-schemas.js';
import { thresholdReason } from '../../shared/contract/threshold-reason.js';
import { terminalText } from '../terminal-text.js';

interface AutoAcceptOptions {
  solution: string;
  target?: number;
  yes?: boolean;
  json?: boolean;
  undo?: boolean;
}

function parseTarget(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n >= 0.5 && n <= 0.999)) {
    throw new UsageError('--target takes a precision from 0.5 to 0.999 (e.g. 0.95).');
  }
  return n;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const question = (r: AutoAcceptResult) =>
  `Accept ${plural(r.boxes, 'box', 'boxes')} on ${plural(r.files, 'file')}?`;

function thresholdsText(r: AutoAcceptResult): string {
  const lines = r.classes.map((c) => `  ${terminalText(c.label)} ≥ ${c.threshold.toFixed(3)}`);
  if (r.classes.length === 0) {
    lines.push(`No class has a threshold at ${r.targetPrecision * 100} % precision:`);
  }
  // Each class left out says why, with its figures (the true reason, not "review more").
  for (const c of r.withheld) {
    lines.push(`  ${terminalText(c.label)}: ${thresholdReason(c, r.targetPrecision)}`);
  }
  return lines.join('\n');
}

async function ask(text: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${text} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export function addAutoAcceptCommand(program: Command): void {
  program
    .command('auto-accept')
    .description(
      'Accept, on files not reviewed yet, the model’s boxes at or above their class’s threshold for a target precision (offline).',
    )
    .option('--solution <id>', 'which solution’s boxes', 'objects')
    .option(
      '--target <p>',
      'target precision (0.5–0.999; default: the one set in Quality, else 0.95)',
      parseTarget,
    )
    .option('--yes', 'accept without asking (otherwise only a terminal is asked; else a dry run)')
    .option('--undo', 'undo the latest auto-accept of the solution')
    .option('--json', 'print JSON')
    .action(async (opts: AutoAcceptOptions) => {
      const app = openAppContext();
      const print = (line: string) => process.stdout.write(`${line}\n`);
      try {
        // A read-only library is read from a private copy: a write there would be lost.
        if (app.readOnly && (opts.yes || opts.undo)) {
          throw new UsageError(readOnlyRefusal(app.home, app.readOnly, 'accepting boxes'));
        }
        if (opts.undo) {
          const latest = app.store.ruleBatches.latest(opts.solution);
          const undone = latest ? undoAutoAccept(app.store, latest.id) : null;
          if (opts.json) print(JSON.stringify({ undone: undone?.boxes ?? 0 }));
          else
            print(undone ? `Undid ${plural(undone.boxes, 'box', 'boxes')}.` : 'Nothing to undo.');
          return;
        }
        const request = {
          solution: opts.solution,
          targetPrecision: opts.target ?? storedTarget(app.store, opts.solution),
        };
        const preview = await autoAccept(app.store, { ...request, apply: opts.yes === true });
        let result = preview;
        if (!opts.yes && preview.boxes > 0 && process.stdin.isTTY && process.stderr.isTTY) {
          process.stderr.write(`${thresholdsText(preview)}\n`);
          if (await ask(question(preview))) {
            result = await autoAccept(app.store, { ...request, apply: true });
          }
        }
        if (opts.json) print(JSON.stringify(result));
        else if (result.batchId !== null) {
          print(
            `Accepted ${plural(result.boxes, 'box', 'boxes')} on ${plural(result.files, 'file')} by rule (undo: labeldesk auto-accept --undo).`,
          );
        } else {
          print(thresholdsText(result));
          print(
            `Would accept ${plural(result.boxes, 'box', 'boxes')} on ${plural(result.files, 'file')}; nothing changed (--yes accepts).`,
          );
        }
      } finally {
        app.close();
      }
    });
}
