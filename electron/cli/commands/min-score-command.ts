/** `labeldesk min-score [score]`: reads or sets the library's minimum score (issue 27 §1). */
import type { Command } from 'commander';
import { openAppContext } from '../../application/app-context.js';
import { storedMinScore, storeMinScore } from '../../application/library-min-score.js';
import { readOnlyRefusal } from '../../application/read-only-home.js';
import { UsageError } from '../../application/usage-error.js';

function parseScore(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n >= 0 && n <= 1)) {
    throw new UsageError('The minimum score is a number from 0 to 1 (e.g. 0.3).');
  }
  return n;
}

export function addMinScoreCommand(program: Command): void {
  program
    .command('min-score')
    .argument(
      '[score]',
      'the new minimum score (0–1); without it, prints the current one',
      parseScore,
    )
    .description(
      'The score below which boxes are not shown nor exported by default (the service keeps lower ones for evaluation and review priority).',
    )
    .option('--json', 'print JSON')
    .action((score: number | undefined, opts: { json?: boolean }) => {
      const app = openAppContext();
      try {
        if (score !== undefined && app.readOnly) {
          throw new UsageError(readOnlyRefusal(app.home, app.readOnly, 'the minimum score'));
        }
        const minScore =
          score === undefined ? storedMinScore(app.store) : storeMinScore(app.store, score);
        process.stdout.write(
          opts.json ? `${JSON.stringify({ minScore })}\n` : `Minimum score: ${minScore}\n`,
        );
      } finally {
        app.close();
      }
    });
}
