/**
 * The app's one labelling run at a time: estimate, start, pause (stop sending, keep the scope),
 * resume (plan the rest again: what is labelled is never sent twice), cancel, and progress events.
 * Waiting for credits is a phase of its own, with the time sending resumes.
 */
import { randomUUID } from 'node:crypto';
import { withLearntCosts } from '../core/runner/learn-cost.js';
import { findSolution } from '../core/runner/plan-run.js';
import type { AsyncView } from '../core/library-view/library-view-client.js';
import { abortableSleep, type RunSummary } from '../core/runner/run-labelling.js';
import {
  acquireLibraryLock,
  describeHolder,
  LibraryBusyError,
  type LibraryLock,
} from '../core/store/library-lock.js';
import type { LibraryStore } from '../core/store/store-types.js';
import {
  LabelDeskError,
  type Estimate,
  type RunPhase,
  type RunScope,
  type RunState,
} from '../shared/contract/index.js';
import type { AppEvents } from './app-events.js';
import { mediaOfScope } from './media-scope.js';
import type { ServiceHub } from './service-hub.js';
import { LabellingSession, spendDecision, unknownCostReason } from './labelling-session.js';
import { prepareRun } from './prepare-run.js';
import { estimateWithTeam } from './team-estimate.js';
import { isFinal, runOutcome } from './run-outcome.js';
import { RunNotes } from './run-notes.js';
import { teamWaitDetail } from './team-wait-detail.js';

export interface StartRequest extends RunScope {
  budget: number | null;
  hourBudget: number | null;
  retryUncertain: boolean;
  /** An explicit Retry: files the service refused before are sent again too. */
  retryRefused?: boolean;
  /** Re-analysis: send again files labelled before this time (see planRun). */
  reanalyseBefore?: number;
  /** The person accepted that the cost is unknown until the first file is sent. */
  acceptUnknownCost?: boolean;
}

interface ActiveRun {
  request: StartRequest;
  /** Planning and the budget, carried from the run to its resumes. */
  session: LabellingSession;
  state: RunState;
  /** A clean stop: nothing new is sent, answers on their way are awaited and saved. */
  stop: AbortController;
  /** Cuts what is on its way (the app is closing). */
  abort: AbortController;
  /** The library's write lock, held while the run may send and save. */
  lock: LibraryLock | undefined;
  /** Why it was aborted: the user paused or cancelled. */
  stopping: 'pause' | 'cancel' | undefined;
  /** Files already in the run's tally (labelled, reused, failed, uncertain): a resume skips them. */
  counted: Set<number>;
  /** Its runs in the store (one per start or resume): the estimate counts their files apart. */
  storeRunIds: number[];
  done: Promise<void>;
}

/** Outcomes that end up in the run's tally; the others (requeued, interrupted) are sent again. */
const TALLIED: ReadonlySet<string> = new Set(['done', 'failed', 'uncertain']);

/** A one-shot app run waits this long at most for the hour or a Retry-After before it stops. */
const MAX_PAUSE_MS = 65 * 60_000;

export class RunController {
  private active: ActiveRun | undefined;
  private readonly progress;

  constructor(
    private readonly store: LibraryStore,
    private readonly hub: ServiceHub,
    private readonly events: AppEvents,
    private readonly onLabelled: () => void,
    /** Resolves when every file added so far has been read (hashed and probed). */
    private readonly filesRead: () => Promise<void>,
    private readonly home: string,
    private readonly view: AsyncView,
  ) {
    this.progress = events.throttled('run.progress', 150);
  }

  current(): RunState | null {
    return this.active?.state ?? null;
  }

  /** The store's runs of the run going now (paused included): none once it has ended. */
  private liveRunIds(): number[] {
    const run = this.active;
    return run && !isFinal(run.state.phase) ? run.storeRunIds.slice() : [];
  }

  isBusy(): boolean {
    const phase = this.active?.state.phase;
    return phase !== undefined && !isFinal(phase) && phase !== 'paused';
  }

  async estimate(scope: RunScope, reanalyseBefore?: number): Promise<Estimate> {
    const catalog = await this.hub.catalog();
    if (!catalog) {
      throw new LabelDeskError(
        'no_catalog',
        'The service has not been reached yet, so its frame costs are unknown.',
      );
    }
    const solution = findSolution(
      withLearntCosts(catalog, this.store.costs, this.hub.identity()),
      scope.solution,
    );
    // Planned on the view's thread: 100k files take a second there, and none here.
    const [counts, credits] = await Promise.all([
      estimateWithTeam(this.store, this.view, {
        catalog,
        solution: scope.solution,
        scope: { folderIds: scope.folderIds, mediaIds: scope.mediaIds },
        serviceUrl: this.hub.identity(),
        reanalyseBefore,
        liveRunIds: this.liveRunIds(),
      }),
      this.hub.keyCredits(),
    ]);
    return {
      solution: solution.id,
      imageCost: solution.frameCost.image,
      frameCost: solution.frameCost.videoFrame,
      ...counts,
      remaining: credits?.remaining ?? null,
      hourRemaining: credits?.hourRemaining ?? null,
      fits: credits ? counts.frames <= credits.remaining : null,
      fitsThisHour: credits ? counts.frames <= credits.hourRemaining : null,
    };
  }

  async start(request: StartRequest): Promise<RunState> {
    if (this.isBusy())
      throw new LabelDeskError('run_active', 'A run is already going: pause or cancel it first.');
    const now = Date.now();
    const state: RunState = {
      runKey: randomUUID(),
      phase: 'preparing',
      solution: request.solution,
      total: 0,
      completed: 0,
      labelled: 0,
      reused: 0,
      failed: 0,
      uncertain: 0,
      framesSpent: 0,
      estimateFrames: 0,
      ratePerSec: 0,
      etaSec: null,
      resumesAt: null,
      detail: null,
      startedAt: now,
      finishedAt: null,
    };
    const session = new LabellingSession(this.store, request);
    session.onTeamWait = teamWaitDetail((detail) => {
      if (this.active) this.set(this.active, { detail });
    });
    return this.launch(request, session, state);
  }

  pause(): RunState | null {
    const run = this.active;
    if (!run || isFinal(run.state.phase) || run.state.phase === 'paused') return this.current();
    run.stopping = 'pause';
    this.set(run, { phase: 'pausing', detail: 'Finishing the files already sent…' });
    run.stop.abort(new Error('paused'));
    return run.state;
  }

  async resume(): Promise<RunState | null> {
    const run = this.active;
    if (!run || run.state.phase !== 'paused') return this.current();
    return this.launch(
      run.request,
      run.session,
      { ...run.state, phase: 'preparing', detail: null },
      run.counted,
      run.storeRunIds,
    );
  }

  cancel(): RunState | null {
    const run = this.active;
    if (!run || isFinal(run.state.phase)) return this.current();
    run.stopping = 'cancel';
    if (run.state.phase === 'paused') {
      this.finish(run, 'cancelled', 'Cancelled.');
      return run.state;
    }
    this.set(run, { phase: 'cancelling', detail: 'Finishing the files already sent…' });
    run.stop.abort(new Error('cancelled'));
    return run.state;
  }

  async close(): Promise<void> {
    this.active?.abort.abort(new Error('closing'));
    await this.active?.done;
  }

  private async launch(
    request: StartRequest,
    session: LabellingSession,
    state: RunState,
    counted = new Set<number>(),
    storeRunIds: number[] = [],
  ): Promise<RunState> {
    const run: ActiveRun = {
      request,
      session,
      state,
      stop: new AbortController(),
      abort: new AbortController(),
      lock: undefined,
      stopping: undefined,
      counted,
      storeRunIds,
      done: Promise.resolve(),
    };
    this.active = run;
    this.emit(run);
    const notes = new RunNotes(this.store, (n) => this.set(run, { notes: [...n] }), state.notes);
    session.onOriginReread = notes.add;
    if (this.store.media.list({ needing: 'hash', limit: 1 }).length > 0) {
      this.set(run, { detail: 'Reading the files that were just added…' });
      await this.filesRead();
      this.set(run, { detail: null });
    }
    const { port, catalog } = await this.prepare(run, notes.add).catch((err: unknown) => {
      this.finish(run, 'failed', err instanceof Error ? err.message : String(err));
      throw err;
    });
    // After a pause, what the run already counted is not planned (nor tallied) a second time.
    const media = (await mediaOfScope(this.store, request)).filter((m) => !counted.has(m.id));
    const plan = session.plan(catalog, port.baseUrl, media);
    notes.checkOrigin(port.baseUrl);
    // The person confirmed the estimate before starting; an unknown cost needs its own yes.
    const accepted = request.acceptUnknownCost ?? false;
    if (spendDecision(plan, { accepted, canAsk: false }) === 'refuse') {
      const err = new LabelDeskError(
        'cost_unknown',
        `${unknownCostReason(plan)}. Accept that to start.`,
      );
      this.finish(run, 'failed', err.message);
      throw err;
    }
    for (const m of plan.reused) counted.add(m.id);
    for (const i of [...plan.refused, ...plan.uncertain]) counted.add(i.media.id);
    const base = { ...run.state };
    this.set(run, {
      phase: 'running',
      total: base.completed + plan.items.length,
      estimateFrames: base.framesSpent + plan.frames,
    });
    run.done = session
      .label(
        {
          service: port,
          catalog,
          sleep: (ms, signal) => this.waitForCredits(run, ms, signal),
        },
        plan,
        {
          maxPauseMs: MAX_PAUSE_MS,
          signal: run.abort.signal,
          stop: run.stop.signal,
          onRunId: (id) => run.storeRunIds.push(id),
          onItem: (item, outcome) => {
            if (TALLIED.has(outcome.kind)) counted.add(item.media.id);
          },
          onProgress: (p) => {
            this.set(run, {
              completed: base.completed + p.completed,
              labelled: base.labelled + p.labelled,
              failed: base.failed + p.failed,
              uncertain: base.uncertain + p.uncertain,
              framesSpent: base.framesSpent + p.framesSpent,
              ratePerSec: p.ratePerSec,
              etaSec: p.etaSec,
            });
            this.onLabelled();
          },
        },
      )
      .then(
        (summary) => {
          // Duplicates are tallied as reused once their twin has an answer.
          for (const m of plan.duplicates) {
            if (m.contentHash && this.store.results.find(m.contentHash, plan.solution.id))
              counted.add(m.id);
          }
          this.settle(run, base, summary);
        },
        (err: unknown) =>
          this.finish(run, 'failed', err instanceof Error ? err.message : String(err)),
      );
    return run.state;
  }

  /** The run's start as `labeldesk label` does it (prepareRun): here the lock is refused, not waited for. */
  private async prepare(run: ActiveRun, say: (line: string) => void) {
    const start = await prepareRun(this.store, {
      lock: async () => {
        try {
          run.lock = await acquireLibraryLock(this.home, { command: 'LabelDesk app run' });
          return true;
        } catch (err) {
          if (!(err instanceof LibraryBusyError)) throw err;
          const who = err.holder ? describeHolder(err.holder) : 'Another process';
          throw new LabelDeskError(
            'library_busy',
            `${who} is labelling this library; only one run may write to it at a time. Start again when it has finished.`,
          );
        }
      },
      connect: async () => {
        await this.hub.setAnalysis(true);
        return this.hub.forRun(say);
      },
    });
    // The lock step never answers "stopped": it takes the lock or throws.
    if (!start) throw new Error('run: the library lock was not taken');
    return start.service;
  }

  /** The run no longer writes: the lock goes, and the embedded service stops analysing. */
  private unlock(run: ActiveRun): void {
    if (!run.lock) return;
    run.lock.release();
    run.lock = undefined;
    void this.hub.setAnalysis(false).catch(() => undefined);
  }

  private settle(run: ActiveRun, base: RunState, s: RunSummary): void {
    this.set(run, {
      labelled: base.labelled + s.labelled,
      reused: base.reused + s.reused,
      failed: base.failed + s.failed.length,
      uncertain: base.uncertain + s.uncertain.length,
      framesSpent: base.framesSpent + s.framesSpent,
    });
    this.onLabelled();
    if (run.stopping === 'pause') {
      this.unlock(run);
      this.set(run, {
        phase: 'paused',
        detail: 'Paused: nothing new is sent until you resume.',
        etaSec: null,
      });
      return;
    }
    const end = runOutcome(s, run.stopping === 'cancel');
    this.finish(run, end.phase, end.detail);
  }

  private async waitForCredits(run: ActiveRun, ms: number, signal: AbortSignal): Promise<void> {
    this.set(run, {
      phase: 'waiting-for-credits',
      resumesAt: Date.now() + ms,
      // The status already says "Waiting for credits until HH:MM"; this says what happens then.
      detail: 'Sending resumes by itself then.',
    });
    try {
      await abortableSleep(ms, signal);
    } finally {
      if (run.state.phase === 'waiting-for-credits')
        this.set(run, { phase: 'running', resumesAt: null, detail: null });
    }
  }

  private finish(run: ActiveRun, phase: RunPhase, detail: string | null): void {
    this.unlock(run);
    this.set(run, { phase, detail, finishedAt: Date.now(), etaSec: null, resumesAt: null });
    this.events.emit('run.progress', run.state);
    this.events.emit('run.finished', run.state);
  }

  private set(run: ActiveRun, patch: Partial<RunState>): void {
    run.state = { ...run.state, ...patch };
    this.emit(run);
  }

  private emit(run: ActiveRun): void {
    if (this.active === run) this.progress(run.state);
  }
}
