import { type Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { findSolution, planRun, type RunPlan } from '../../core/runner/plan-run.js';
import { runLabelling, type RunSummary } from '../../core/runner/run-labelling.js';
import { openAppContext } from '../app-context.js';
import { parseIntOption } from '../cli-options.js';
import { collectMedia } from '../collect-media.js';
import { checkExportTarget } from '../../core/export/export-library.js';
import { exportSelection, EXPORT_FORMATS, type ExportFormat } from '../export-selection.js';
import { planText } from '../plan-view.js';
import { progressView } from '../progress-view.js';
import { EXIT, exitCodeOf, summaryJson, summaryText } from '../run-summary.js';
import { CliUsageError, connectService, type ServiceConnection } from '../service-connection.js';
import { watchAndLabel } from '../watch-and-label.js';
import { terminalText } from '../terminal-text.js';

export interface LabelOptions {
  service?: string;
  solution: string;
  budget?: number;
  hourBudget?: number;
  concurrency?: number;
  watch?: boolean;
  export?: ExportFormat;
  out?: string;
  force?: boolean;
  yes?: boolean;
  json?: boolean;
  retryUncertain?: boolean;
}

/** One-shot runs wait this long at most for a Retry-After; --watch waits for the next hour. */
const ONE_SHOT_MAX_PAUSE_MS = 60_000;

async function confirm(plan: RunPlan): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Spend up to ${plan.frames} frames? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export function addLabelCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('label')
    .description('Label every image and clip under the given folders or files.')
    .argument('<paths...>', 'folders or files')
    .option('--service <url>', 'a hosted service (default: the embedded one, started in-process)')
    .option('--solution <id>', 'solution id from the catalog', 'objects')
    .option('--budget <frames>', 'spend at most this many frames in this run', parseIntOption(0))
    .option(
      '--hour-budget <frames>',
      'spend at most this many frames per clock hour',
      parseIntOption(0),
    )
    .option('--concurrency <n>', 'requests at once (capped by the catalog)', parseIntOption(1, 64))
    .option('--watch', 'keep running and label new files as they appear')
    .option('--export <format>', `export when done: ${EXPORT_FORMATS.join(', ')}`)
    .option('--out <path>', 'where --export writes')
    .option('--force', 'let --export replace a previous export at --out')
    .option('--retry-uncertain', 'send again files whose last call may have been charged')
    .option('-y, --yes', 'do not ask before spending')
    .option('--json', 'print the summary as JSON')
    .action(async (paths: string[], opts: LabelOptions) => {
      if (opts.export && !EXPORT_FORMATS.includes(opts.export)) {
        throw new CliUsageError(`--export takes one of ${EXPORT_FORMATS.join(', ')}.`);
      }
      if (opts.export && !opts.out) throw new CliUsageError('--export needs --out PATH.');
      if (opts.out && !opts.export) throw new CliUsageError('--out needs --export FORMAT.');
      // Checked before anything is spent: an export in the way would only fail at the end.
      if (opts.export && opts.out) await checkExportTarget(opts.out, opts.export, !!opts.force);
      setExit(await label(paths, opts));
    });
}

async function label(paths: string[], opts: LabelOptions): Promise<number> {
  const app = openAppContext();
  const abort = new AbortController();
  const stop = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let conn: ServiceConnection | undefined;
  const err = process.stderr;
  const view = progressView(err, !opts.json);
  try {
    const connection = await connectService(app, {
      ...(opts.service ? { service: opts.service } : {}),
      waitForModels: true,
    });
    conn = connection;
    const catalog = await conn.client.catalog();
    app.store.catalog.saveSnapshot(
      conn.port.baseUrl,
      catalog.version,
      JSON.stringify(catalog),
      Date.now(),
    );
    // A mistyped --solution is refused before a (possibly long) scan and hash of the folders.
    findSolution(catalog, opts.solution);
    const selection = await collectMedia(app.store, paths, (stage) => view.line(`${stage}…`));
    for (const issue of selection.issues) view.line(`skipped ${issue.path}: ${issue.message}`);
    const plan = planRun(app.store, catalog, opts.solution, selection.media, {
      retryUncertain: opts.retryUncertain ?? false,
      serviceUrl: connection.port.baseUrl,
    });
    const key = await conn.client.keyStatus();
    if (!opts.json) err.write(`${planText(plan, key)}\n`);
    const interactive = process.stdin.isTTY && process.stderr.isTTY;
    if (interactive && !opts.yes && plan.frames > 0 && !(await confirm(plan))) {
      err.write('Nothing was sent.\n');
      return EXIT.ok;
    }
    const run = (p: RunPlan, maxPauseMs: number): Promise<RunSummary> =>
      runLabelling({ store: app.store, service: connection.port, catalog }, p, {
        budgetFrames: opts.budget ?? null,
        hourBudgetFrames: opts.hourBudget ?? null,
        ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
        maxPauseMs,
        signal: abort.signal,
        onProgress: (p) => view.update(p),
        onItem: (item, outcome) => {
          if (outcome.kind === 'failed')
            view.line(`failed ${item.media.path}: ${outcome.code}: ${outcome.message}`);
        },
      });
    const summary = await run(plan, opts.watch ? Number.POSITIVE_INFINITY : ONE_SHOT_MAX_PAUSE_MS);
    view.done();
    if (opts.json) process.stdout.write(`${JSON.stringify(summaryJson(plan, summary))}\n`);
    else process.stdout.write(`${summaryText(summary)}\n`);
    if (opts.export && opts.out) {
      const written = await exportSelection(app.store, selection.media, {
        format: opts.export,
        out: opts.out,
        solution: plan.solution,
        ...(opts.force ? { replace: true } : {}),
      });
      if (!opts.json)
        process.stdout.write(
          `Exported ${written.boxes} boxes from ${written.files} files to ${terminalText(opts.out)}\n`,
        );
    }
    if (opts.watch && !abort.signal.aborted) {
      await watchAndLabel(selection, abort.signal, async (media) => {
        const next = planRun(app.store, catalog, opts.solution, media, {
          serviceUrl: connection.port.baseUrl,
        });
        if (next.items.length === 0) return;
        const s = await run(next, Number.POSITIVE_INFINITY);
        process.stdout.write(
          `${opts.json ? JSON.stringify(summaryJson(next, s)) : summaryText(s)}\n`,
        );
      });
      return EXIT.ok;
    }
    return exitCodeOf(summary);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    view.done();
    await conn?.close();
    app.close();
  }
}
