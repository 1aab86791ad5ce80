/**
 * Check service with a file: that one file is sent (it spends its frames, counted in the ledger),
 * and the report says how its detections were read, what it cost (the answer's credits, else GET
 * /key before and after) and, when the catalog does not publish the cost, that it is now learnt.
 * The image comes back as a small preview so the app can draw the boxes on it.
 */
import { basename } from 'node:path';
import type { CheckPart, CheckSpend } from '../shared/contract/index.js';
import { mediaKindOf } from '../core/library/media-types.js';
import { spentOf } from '../core/runner/learn-cost.js';
import { abortableSleep, waitText } from '../core/runner/run-stop.js';
import { jobPatienceMs } from '../core/runner/video-task.js';
import type { CatalogView, WireDetection } from '../core/runner/service-port.js';
import { askedWait, clampPollInterval } from '../core/service/poll-interval.js';
import { isFinished } from '../core/service/service-adapter.js';
import { AnswerNotUnderstoodError } from '../core/service/service-errors.js';
import type { AdapterNote } from '../core/service/adapter/adapter-types.js';
import { recordOrigin } from './box-origin-watch.js';
import { framesText, type CheckTarget } from './check-service.js';
import { checkFileToSpend } from './spend-file-check.js';
import { UsageError } from './usage-error.js';

const PREVIEW_PX = 960;
const MAX_BOXES = 2_000;

interface Heard {
  detections: WireDetection[];
  /** Analysed frames (a clip), 1 for an image. */
  frames: number;
  notes: readonly { text: string }[];
  credits: { spent?: number | null } | null | undefined;
}

type Solution = CatalogView['solutions'][number];

export async function spendOneFile(
  target: CheckTarget,
  catalog: CatalogView,
  file: string,
  options: { solution?: string; signal?: AbortSignal },
): Promise<{ spend: CheckSpend; part: CheckPart }> {
  const kind = mediaKindOf(file);
  if (!kind) throw new UsageError(`${file} is not an image or a clip LabelDesk knows by its name.`);
  // The checks `label` applies, before anything is sent (or read from the key).
  const stillProbed = await checkFileToSpend(file, kind);
  const solution = pickSolution(catalog, kind, options.solution);
  const { client, store, identity } = target;
  const before = await client.keyStatus(options.signal);
  let heard: Heard | undefined;
  let problem: string | undefined;
  await stillProbed();
  try {
    heard = await send(target, catalog, solution, file, kind, options.signal);
  } catch (err) {
    if (!(err instanceof AnswerNotUnderstoodError)) throw err;
    problem = `charged but not understood (${err.problems.join('; ')})`;
  }
  // An answer read as corners only because nothing decided leaves the origin undecided.
  recordOrigin(store, identity, heard?.notes as readonly AdapterNote[] | undefined);
  const reported = spentOf(heard?.credits);
  const after = await client.keyStatus(options.signal);
  const spent = reported ?? Math.max(0, before.remaining - after.remaining);
  store.ledger.record({ serviceUrl: identity, submissionId: null, frames: spent, at: Date.now() });
  const cost = heard ? costSentence(target, solution, kind, spent, heard.frames) : 'not learnt';
  const spend: CheckSpend = {
    file,
    kind,
    solution: solution.id,
    spent,
    cost,
    detectionForm: heard ? formSentences(heard) : [problem ?? 'not understood'],
    boxes: (heard?.detections ?? []).slice(0, MAX_BOXES).map((d) => ({
      label: d.label,
      score: d.score ?? null,
      ...d.bbox,
    })),
    preview: kind === 'image' ? await previewOf(file) : null,
    boxOrigin: target.boxOrigin,
  };
  const part: CheckPart = problem
    ? { part: `answer for ${basename(file)}`, verdict: 'not-understood', text: problem }
    : {
        part: `answer for ${basename(file)}`,
        verdict: heard?.notes.length ? 'understood-as' : 'understood',
        text: `${heard?.notes.length ? 'understood as' : 'understood:'} ${spend.detectionForm.join('; ')}; ${spent} frames spent, ${cost}`,
      };
  return { spend, part };
}

function pickSolution(catalog: CatalogView, kind: string, wanted: string | undefined): Solution {
  const found = wanted
    ? catalog.solutions.find((s) => s.id === wanted)
    : (catalog.solutions.find((s) => s.id === 'objects' && s.media.includes(kind)) ??
      catalog.solutions.find((s) => s.media.includes(kind)));
  if (!found) {
    throw new UsageError(
      wanted
        ? `Unknown solution "${wanted}"; the service offers: ${catalog.solutions.map((s) => s.id).join(', ')}.`
        : `No solution of the service takes ${kind}s.`,
    );
  }
  return found;
}

async function send(
  target: CheckTarget,
  catalog: CatalogView,
  solution: Solution,
  file: string,
  kind: 'image' | 'video',
  signal: AbortSignal | undefined,
): Promise<Heard> {
  const { client } = target;
  if (kind === 'image') {
    const answer = await client.inferImage({ solution: solution.id, file, signal });
    return {
      detections: answer.detections,
      frames: 1,
      notes: notesOf(answer),
      credits: answer.credits,
    };
  }
  const submitted = await client.submitVideo({ solution: solution.id, file, signal });
  const bounds = catalog.limits.pollIntervalMs;
  let wait = clampPollInterval(submitted.pollIntervalMs, bounds);
  const waits = signal ?? new AbortController().signal;
  // A wait longer than a run would give the job is not waited out here either: said, not polled
  // (and the job cancelled, so it holds no slot at the service).
  const tooLong = async (hint: number | null | undefined) => {
    const asked = askedWait(hint, bounds);
    if (asked <= jobPatienceMs(null)) return;
    await client.cancelJob(submitted.jobId, signal).catch(() => undefined);
    throw new UsageError(
      `The service asked to wait ${waitText(asked)} before polling job ${submitted.jobId} (pollIntervalMs): not waited; the job was cancelled (its frames are spent).`,
    );
  };
  await tooLong(submitted.pollIntervalMs);
  for (;;) {
    await abortableSleep(wait, waits);
    const job = await client.job(submitted.jobId, signal);
    if (isFinished(job.status)) {
      if (!job.result) throw new Error(job.error?.message ?? `The job ended ${job.status}.`);
      return {
        detections: job.result.frames.flatMap((f) => f.detections),
        frames: job.result.frames.length,
        notes: [...notesOf(submitted), ...notesOf(job)],
        credits: null,
      };
    }
    await tooLong(job.pollIntervalMs);
    wait = clampPollInterval(job.pollIntervalMs, bounds);
  }
}

/** The adapter's remarks on an answer, when it made any. */
function notesOf(answer: object): readonly { text: string }[] {
  const notes = (answer as { understanding?: unknown }).understanding;
  return Array.isArray(notes) ? (notes as { text: string }[]) : [];
}

function formSentences(heard: Heard): string[] {
  const count = `${heard.detections.length} detection${heard.detections.length === 1 ? '' : 's'}`;
  if (heard.notes.length === 0)
    return [`${count}, each with a label, a score, bbox and bboxPx as {x,y,w,h}`];
  return [count, ...new Set(heard.notes.map((n) => n.text))];
}

/** What the call says about the cost; an unpublished cost is learnt (and kept) from it. */
function costSentence(
  target: CheckTarget,
  solution: Solution,
  kind: 'image' | 'video',
  spent: number,
  frames: number,
): string {
  const costKind = kind === 'image' ? 'image' : 'videoFrame';
  const unit = kind === 'image' ? 'image' : 'clip frame';
  const perUnit = kind === 'image' ? spent : frames > 0 ? spent / frames : null;
  const published = solution.frameCost[costKind];
  if (perUnit === null) return 'cost not learnt (no frame was analysed)';
  if (published !== null) {
    return published === perUnit
      ? `as published (${framesText(published)} per ${unit})`
      : `the catalog says ${framesText(published)} per ${unit}, but this call cost ${perUnit}`;
  }
  const before = target.store.costs.get(target.identity, solution.id)[costKind];
  if (before === perUnit) return `as learnt before (${framesText(perUnit)} per ${unit})`;
  target.store.costs.set(target.identity, solution.id, costKind, perUnit, Date.now());
  return before === null
    ? `learnt: ${framesText(perUnit)} per ${unit} (not published by the service)`
    : `learnt again: ${framesText(perUnit)} per ${unit} (it was ${before}; not published by the service)`;
}

async function previewOf(file: string): Promise<string | null> {
  try {
    // Loaded when a check needs a preview: sharp costs the app's start ~0.1–0.2 s otherwise.
    const { default: sharp } = await import('sharp');
    const jpeg = await sharp(file, { animated: false })
      .rotate()
      .resize({ width: PREVIEW_PX, height: PREVIEW_PX, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toBuffer();
    return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  } catch {
    return null;
  }
}
