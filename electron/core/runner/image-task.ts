/** One image: reserve its frames, send it, store the boxes and the charge, settle. */
import {
  AnswerLimitError,
  AnswerNotUnderstoodError,
  UncertainOutcomeError,
} from '../service/service-errors.js';
import { classifyError } from './classify-error.js';
import { DiskFullError, isDiskFull } from './disk-full.js';
import { keepRawAnswer } from './keep-raw-answer.js';
import { keyFiguresOf, spentOf, spentSince } from './learn-cost.js';
import type { CreditsState, KeyView } from './service-port.js';
import type { PlannedItem, TaskContext, TaskOutcome } from './task-types.js';
import { toDetectionInputs } from './to-detections.js';

/** The submission is already `sending` (created so by the scheduler: one commit, not two). */
export async function runImageTask(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
): Promise<TaskOutcome> {
  const { service, solution } = ctx;
  const checked = await checkToSend(ctx, item, submissionId);
  if (checked && 'kind' in checked) return checked;
  /** The key before the call, read when the cost is unknown (nothing else is in flight then). */
  let before: KeyView | undefined;
  try {
    before = item.costUnknown ? await service.keyStatus(ctx.signal) : undefined;
    const answer = await service.inferImage({
      solution: solution.id,
      file: item.media.path,
      ...(checked?.bytes ? { bytes: checked.bytes } : {}),
      signal: ctx.signal,
      solutionClasses: solution,
    });
    const spent = await spendOf(ctx, item, answer.credits, before);
    // Result, charge and state land together (with the other answers of this event-loop turn):
    // a crash in between must not keep one without the others. Only then is the answer settled.
    // A full disk does not lose the paid answer: it is held here and saved once space returns.
    const commit = () =>
      ctx.answers.commit({
        submissionId,
        framesSpent: spent,
        serviceUrl: service.baseUrl,
        result: {
          contentHash: item.media.contentHash,
          solution: solution.id,
          serviceUrl: service.baseUrl,
          // Not published and no box to tell: the file's own size (boxes are normalised anyway).
          analysedWidth: answer.image.analysedWidth ?? item.media.width ?? 0,
          analysedHeight: answer.image.analysedHeight ?? item.media.height ?? 0,
          model: answer.stats.model ?? null,
          detections: toDetectionInputs(answer.detections, 0, null),
        },
        ...(answer.assumedOrigin ? { assumedOrigin: answer.assumedOrigin } : {}),
      });
    // The service is done with this file: its slot is free, and the next file's `sending` row
    // can join this answer's commit. Not while a cost is learnt, nor while the disk is full (the
    // slot is then held until the answer is saved).
    if (!item.costUnknown && !ctx.disk.full) ctx.answered?.(item);
    try {
      await ctx.disk.retry(commit, ctx.sleep, ctx.signal);
    } catch (err) {
      if (!(err instanceof DiskFullError)) throw err;
      ctx.budget.settle(item.cost, spent, keyFiguresOf(answer.credits));
      return recordUnsaved(ctx, submissionId, spent, err.message);
    }
    ctx.budget.settle(item.cost, spent, keyFiguresOf(answer.credits));
    return { kind: 'done', framesSpent: spent, boxes: answer.detections.length };
  } catch (err) {
    if (err instanceof AnswerNotUnderstoodError) {
      // Charged though unreadable: while its cost is learnt, the key says what it cost (and teaches it).
      const charged = await spendOf(ctx, item, null, before);
      ctx.budget.settle(item.cost, charged);
      return keepRawAnswer(ctx, item, submissionId, err, charged);
    }
    const outcome = classifyError(err, ctx.signal);
    // An uncertain call may have been charged: count it as spent so the budget never overshoots.
    ctx.budget.settle(item.cost, outcome.kind === 'uncertain' ? item.cost : 0);
    if (outcome.kind === 'uncertain' && answeredOk(err) && item.cost > 0) {
      // The service said 200 before its answer was abandoned: it charged the known cost.
      const paid = { ...outcome, framesSpent: item.cost };
      await recordDurably(ctx, submissionId, paid, service.baseUrl);
      return paid;
    }
    await recordDurably(ctx, submissionId, outcome);
    return outcome;
  }
}

/** An inference call abandoned at a limit after the service had answered 2xx (so charged). */
function answeredOk(err: unknown): boolean {
  const limit = err instanceof UncertainOutcomeError ? err.cause : undefined;
  return (
    limit instanceof AnswerLimitError && (limit.status ?? 0) >= 200 && (limit.status ?? 0) < 300
  );
}

/**
 * What the answer cost: its own `credits.spent`, else the key's difference when the cost was being
 * learnt, else the known cost. A spend that teaches (or corrects) the image cost is passed on.
 */
async function spendOf(
  ctx: TaskContext,
  item: PlannedItem,
  credits: CreditsState | null | undefined,
  before: KeyView | undefined,
): Promise<number> {
  const reported = spentOf(credits);
  // The answer is paid for already: a failed key read must not lose it (its cost stays unlearnt).
  const measured =
    reported ??
    (before ? await spentSince(ctx.service, before, ctx.signal).catch(() => undefined) : undefined);
  if (measured === undefined) return item.cost;
  if (item.costUnknown || measured !== item.cost) ctx.learnCost('image', measured);
  return measured;
}

/**
 * A file is sent only while its path leads to the file that was probed (a link swapped after the
 * scan is refused): the same rule as serving it to the UI. Nothing is sent, nothing charged.
 */
export async function refusedToSend(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
): Promise<TaskOutcome | undefined> {
  const checked = await checkToSend(ctx, item, submissionId);
  return checked && 'kind' in checked ? checked : undefined;
}

/** refusedToSend, or the file's bytes when the check read them (a small file). */
async function checkToSend(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
): Promise<TaskOutcome | { bytes?: Uint8Array } | undefined> {
  if (!ctx.checkFile) return undefined;
  const why = await ctx.checkFile(item.media, rootOf(ctx, item.media.folderId));
  if (!why || !('code' in why)) return why;
  ctx.budget.settle(item.cost, 0);
  const outcome: TaskOutcome = { kind: 'failed', framesSpent: 0, ...why };
  await recordDurably(ctx, submissionId, outcome);
  return outcome;
}

/** Library roots by folder id, read once per run, not once per file (a folder keeps its path). */
const rootsOfRun = new WeakMap<TaskContext, Map<number, string>>();

function rootOf(ctx: TaskContext, folderId: number): string | undefined {
  let roots = rootsOfRun.get(ctx);
  if (!roots?.has(folderId)) {
    roots = new Map(ctx.store.folders.list().map((f) => [f.id, f.path]));
    rootsOfRun.set(ctx, roots);
  }
  return roots.get(folderId);
}

/**
 * The run was aborted while a paid answer still waited for space: the file is marked uncertain
 * with the reason (or, if even that cannot be written, stays `sending`, which the next plan also
 * treats as uncertain), so it is never sent and charged again without the user asking.
 */
function recordUnsaved(
  ctx: TaskContext,
  submissionId: number,
  spent: number,
  why: string,
): TaskOutcome {
  const outcome: TaskOutcome = {
    kind: 'uncertain',
    code: 'disk_full',
    message: `${why} Free some space, then send it again with --retry-uncertain.`,
    framesSpent: spent,
  };
  try {
    recordOutcome(ctx, submissionId, outcome);
  } catch (err) {
    if (!isDiskFull(err)) throw err;
  }
  return outcome;
}

/**
 * Records a failure; a full disk delays it (and, on an abort, leaves the row as it was). With
 * `serviceUrl`, an uncertain outcome's known `framesSpent` enters the ledger in the same commit.
 */
export async function recordDurably(
  ctx: TaskContext,
  submissionId: number,
  outcome: TaskOutcome,
  serviceUrl?: string,
): Promise<void> {
  const charged = outcome.kind === 'uncertain' && serviceUrl ? (outcome.framesSpent ?? 0) : 0;
  const write = () =>
    ctx.store.transaction(() => {
      if (charged !== 0 && serviceUrl) {
        ctx.store.ledger.record({ serviceUrl, submissionId, frames: charged, at: ctx.now() });
      }
      if (charged === 0 || outcome.kind !== 'uncertain')
        return recordOutcome(ctx, submissionId, outcome);
      ctx.store.submissions.setState(submissionId, 'uncertain', {
        framesSpent: charged,
        errorCode: outcome.code,
        errorMessage: outcome.message,
      });
    });
  try {
    await ctx.disk.retry(write, ctx.sleep, ctx.signal);
  } catch (err) {
    if (!(err instanceof DiskFullError)) throw err;
  }
}

export function recordOutcome(ctx: TaskContext, submissionId: number, outcome: TaskOutcome): void {
  const subs = ctx.store.submissions;
  switch (outcome.kind) {
    case 'failed':
      subs.setState(submissionId, 'failed', {
        errorCode: outcome.code,
        errorMessage: outcome.message,
      });
      break;
    case 'uncertain':
      subs.setState(submissionId, 'uncertain', {
        errorCode: outcome.code,
        errorMessage: outcome.message,
      });
      break;
    case 'cancelled':
      subs.setState(submissionId, 'cancelled');
      break;
    case 'no-credits':
    case 'busy':
      subs.setState(submissionId, 'waiting-for-credits', {
        errorCode: outcome.kind === 'busy' ? 'service_busy' : `credits_${outcome.reason}`,
        errorMessage: outcome.kind === 'busy' ? 'The service was busy.' : 'Not enough frames left.',
      });
      break;
    case 'done':
    case 'interrupted':
      break;
  }
}
