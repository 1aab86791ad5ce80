import { type Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { EMBEDDED_ACCOUNT } from '../../application/service-port.js';
import {
  lockLibraryForRun,
  openAppContext,
  type AppContext,
  type LibraryLock,
} from '../../application/app-context.js';
import {
  isDiskFull,
  LabellingSession,
  setReading,
  spendDecision,
  unknownCostReason,
  type KeyView,
  type RunPlan,
  type RunSummary,
} from '../../application/labelling-session.js';
import { interruptions } from '../interruptions.js';
import { parseIntOption } from '../cli-options.js';
import { planPaths } from '../../application/plan-paths.js';
import { streamPlanPaths, type StreamedPlan } from '../../application/stream-plan.js';
import {
  checkExportTarget,
  EXPORT_FORMATS,
  type ExportFormat,
} from '../../application/export-target.js';
import { planText } from '../plan-view.js';
import { progressView } from '../progress-view.js';
import { diskMessage, EXIT, exitCodeOf, summaryJson, summaryText } from '../run-summary.js';
import {
  UsageError,
  connectService,
  type ServiceConnection,
} from '../../application/service-connection.js';
import { terminalText } from '../terminal-text.js';
import { readOnlyRefusal } from '../../application/read-only-home.js';
import { prepareRun } from '../../application/prepare-run.js';
import {
  decidedRereadLine,
  rereadDecidedAfterRun,
} from '../../application/origin-decided-reread.js';

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
  reanalyse?: boolean;
  wait?: boolean;
  boxOrigin?: 'corner' | 'centre';
}

/** One-shot runs wait this long at most for a Retry-After; --watch waits for the next hour. */
const ONE_SHOT_MAX_PAUSE_MS = 60_000;

/** Asks before spending; Ctrl-C (or `stop`) at the prompt rejects with an AbortError. */
async function confirm(plan: RunPlan, stop: AbortSignal, onCtrlC: () => void): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // On a terminal readline reads Ctrl-C itself (raw mode) and reports it here, not as a signal.
  rl.on('SIGINT', onCtrlC);
  try {
    const question =
      plan.costUnknown > 0
        ? 'The cost is unknown until the first file: send it, learn the cost and go on? [y/N] '
        : `Spend up to ${plan.frames} frames? [y/N] `;
    const answer = await rl.question(question, {
      signal: stop,
    });
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
    .option('--reanalyse', 'send labelled files again (spends frames); corrections are kept')
    .option('--wait', 'if another run is labelling this library, wait for it (default: exit 4)')
    .option(
      '--box-origin <corner|centre>',
      "whether this service's box x,y is the top-left corner (default) or the centre; kept per service",
    )
    .option('-y, --yes', 'do not ask before spending')
    .option('--json', 'print the summary as JSON')
    .action(async (paths: string[], opts: LabelOptions) => {
      if (opts.export && !EXPORT_FORMATS.includes(opts.export)) {
        throw new UsageError(`--export takes one of ${EXPORT_FORMATS.join(', ')}.`);
      }
      if (opts.boxOrigin && opts.boxOrigin !== 'corner' && opts.boxOrigin !== 'centre')
        throw new UsageError('--box-origin takes corner or centre.');
      if (opts.export && !opts.out) throw new UsageError('--export needs --out PATH.');
      if (opts.out && !opts.export) throw new UsageError('--out needs --export FORMAT.');
      // Checked before anything is spent: an export in the way would only fail at the end.
      if (opts.export && opts.out) await checkExportTarget(opts.out, opts.export, !!opts.force);
      setExit(await label(paths, opts));
    });
}

async function label(paths: string[], opts: LabelOptions): Promise<number> {
  const app = openAppContext();
  const err = process.stderr;
  const view = progressView(err, !opts.json);
  // What the user must know (a stop, a full disk) is said on stderr even with --json.
  const say = (text: string) => (opts.json ? err.write(`${text}\n`) : view.line(text));
  const ctrlC = interruptions(say);
  let conn: ServiceConnection | undefined;
  let lock: LibraryLock | undefined;
  try {
    if (app.readOnly)
      throw new UsageError(readOnlyRefusal(app.home, app.readOnly, 'labelling results'));
    // The app's run starts the same way (prepareRun): lock, kept answers, then the service.
    const start = await prepareRun(app.store, {
      lock: async () => {
        lock = await lockLibraryForRun(app, {
          command: `labeldesk label ${paths.join(' ')}`,
          wait: opts.wait ?? false,
          signal: ctrlC.stop,
          say: (line) => err.write(`${line}\n`),
        });
        // The person's box origin first: the kept answers are read again with it.
        if (lock && opts.boxOrigin)
          setReading(app.store, opts.service ?? EMBEDDED_ACCOUNT, { boxOrigin: opts.boxOrigin });
        return lock !== undefined;
      },
      reread: ({ read, kept }) => {
        if (read > 0) say(`Read ${read} kept answer(s) the service had already charged.`);
        if (kept > 0) say(`${kept} charged answer(s) are kept but not understood.`);
      },
      originReread: (summary) => {
        const { files, corrections } = summary;
        if (files > 0)
          say(
            decidedRereadLine(summary) ??
              `Read the boxes of ${files} file(s) again with the confirmed box origin (${corrections} correction(s) kept on them).`,
          );
      },
      connect: async () => {
        conn = await connectService(app, {
          ...(opts.service ? { service: opts.service } : {}),
          waitForModels: true,
        });
        const catalog = await conn.client.catalog();
        saveSnapshot(app, conn.port.baseUrl, catalog);
        return { connection: conn, catalog };
      },
    });
    if (!start) return EXIT.interrupted;
    const { connection, catalog } = start.service;
    // The run's budget is the run's: batches that --watch labels later spend what is left of it.
    const session = new LabellingSession(app.store, {
      solution: opts.solution,
      budget: opts.budget ?? null,
      hourBudget: opts.hourBudget ?? null,
      retryUncertain: opts.retryUncertain ?? false,
      ...(opts.reanalyse ? { reanalyseBefore: Date.now() } : {}),
    });
    // Said even with --json: why a file of the plan is not sent by this run.
    session.onTeamWait = (item, holder) =>
      say(`${holder} is sending ${item.media.path}: waiting for that answer, not sending it twice`);
    session.onOriginReread = say;
    const request = {
      ...session.request,
      paths,
      serviceUrl: connection.port.baseUrl,
      onStage: (stage: string) => view.line(`${stage}…`),
      signal: ctrlC.stop,
    };
    const canAsk = Boolean(process.stdin.isTTY && process.stderr.isTTY);
    // A mistyped --solution is refused before a (possibly long) scan and hash of the folders.
    // Nobody to confirm a total: files are sent while the rest are still being read.
    const streamed = await streamPlanPaths(app.store, catalog, request, !!opts.yes || !canAsk);
    const { plan, selection } = streamed ?? (await planPaths(app.store, catalog, request));
    for (const issue of selection.issues) view.line(`skipped ${issue.path}: ${issue.message}`);
    const key = await connection.client.keyStatus();
    if (!opts.json && !streamed) err.write(`${planText(plan, key)}\n`);
    const decision = spendDecision(plan, { accepted: opts.yes ?? false, canAsk });
    if (decision === 'refuse') {
      throw new UsageError(
        `${unknownCostReason(plan)} (only that file's cost is at risk). Nothing was sent; run again with --yes to accept.`,
      );
    }
    const asked =
      decision === 'ask'
        ? await confirm(plan, ctrlC.stop, ctrlC.press).catch((e: unknown) => {
            if (ctrlC.stop.aborted) return 'interrupted' as const;
            throw e;
          })
        : true;
    if (asked !== true || ctrlC.stop.aborted) {
      err.write(`${asked === false ? '' : '\n'}Nothing was sent.\n`);
      return asked === false ? EXIT.ok : EXIT.interrupted;
    }
    const run = async (
      p: RunPlan,
      maxPauseMs: number,
      arrivals?: StreamedPlan['items'],
      fresh?: KeyView,
    ): Promise<RunSummary> => {
      ctrlC.running = true;
      try {
        const deps = { service: connection.port, catalog, ...(fresh ? { key: fresh } : {}) };
        return await session.label(deps, p, {
          ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
          maxPauseMs,
          ...(arrivals ? { arrivals } : {}),
          signal: ctrlC.abort,
          stop: ctrlC.stop,
          onProgress: (p) => view.update(p),
          onItem: (item, outcome) => {
            if (outcome.kind === 'failed')
              view.line(`failed ${item.media.path}: ${outcome.code}: ${outcome.message}`);
            // A kept result with an error beside it: said even with --json (what was paid for).
            if (outcome.kind === 'done' && outcome.note)
              say(`labelled ${item.media.path}; the service also reported ${outcome.note}`);
          },
          onDisk: (state) => say(diskMessage(state, app.home)),
          onCostLearnt: (kind, frames) =>
            say(
              `Learnt from the service's count: ${frames} frames per ${kind === 'image' ? 'image' : 'clip frame'} for ${p.solution.id}.`,
            ),
          onCostDrift: (frames) =>
            say(
              `The key lost ${Math.abs(frames)} frames ${frames > 0 ? 'more' : 'less'} than the learnt cost accounts for: counted as the service counts them, and the cost is learnt again from the next file.`,
            ),
        });
      } finally {
        ctrlC.running = false;
      }
    };
    const summary = await run(
      plan,
      opts.watch ? Number.POSITIVE_INFINITY : ONE_SHOT_MAX_PAUSE_MS,
      streamed?.items,
      // Read just now: the run need not ask again, unless a person took their time to answer.
      decision === 'go' ? key : undefined,
    );
    view.done();
    // Answers held after the run's boxes decided the origin: read again now, not next start.
    const late = await rereadDecidedAfterRun(app.store);
    if (late) say(late);
    if (!opts.json && streamed) err.write(`${planText(plan, key)}\n`);
    if (opts.json) process.stdout.write(`${JSON.stringify(summaryJson(plan, summary))}\n`);
    else process.stdout.write(`${summaryText(summary)}\n`);
    if (opts.export && opts.out) {
      // Loaded only here: a run without --export starts without the export writers.
      const { exportSelection } = await import('../../application/export-selection.js');
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
    // A watch ends only by Ctrl-C (or SIGTERM): 130 in every state, a spent budget included.
    if (opts.watch && ctrlC.stop.aborted) return EXIT.interrupted;
    if (opts.watch) {
      const { watchAndLabel } = await import('../../application/watch-and-label.js');
      await watchAndLabel(selection, ctrlC.stop, async (media) => {
        const next = session.plan(catalog, connection.port.baseUrl, media);
        if (next.items.length === 0) return;
        const s = await run(next, Number.POSITIVE_INFINITY);
        process.stdout.write(
          `${opts.json ? JSON.stringify(summaryJson(next, s)) : summaryText(s)}\n`,
        );
      });
      return EXIT.interrupted;
    }
    return exitCodeOf(summary);
  } catch (e) {
    // Stopped while scanning or hashing: what was read is kept, the next run reads the rest.
    if (ctrlC.stop.aborted && !ctrlC.running) {
      err.write('\nStopped before sending anything.\n');
      return EXIT.interrupted;
    }
    if (isDiskFull(e)) {
      throw new Error(
        `The disk holding the library (${app.home}) is full: nothing was sent. Free some space and run again.`,
        { cause: e },
      );
    }
    throw e;
  } finally {
    ctrlC.dispose();
    view.done();
    await conn?.close();
    lock?.release();
    app.close();
  }
}

/** The catalog is kept for offline use; a full disk must not stop a run over this copy. */
function saveSnapshot(app: AppContext, url: string, catalog: { version: string }): void {
  try {
    app.store.catalog.saveSnapshot(url, catalog.version, JSON.stringify(catalog), Date.now());
  } catch (e) {
    if (!isDiskFull(e)) throw e;
  }
}
