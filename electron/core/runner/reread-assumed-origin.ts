/**
 * Answers read while a service's box origin was undecided were read with x,y as the corner and
 * held as received (hold-assumed.ts). Once a person confirms the origin (the Service screen,
 * `label --box-origin`), or later answers' boxes decide it (origin-decision.ts), each is read
 * again, with no network, with that convention, and its model boxes replaced through the
 * corrected set (issue 23):
 * - only while the stored model boxes are still the ones that answer gave (a later answer for the
 *   file, from this service or another, stands);
 * - a person's corrections are never overwritten: each correction standing on one of the old
 *   boxes is moved onto the same detection read again (so no duplicate appears beside it): a
 *   box they moved stays where they put it, a relabelled or rejected one follows its box, and a
 *   box they accepted as it was shown keeps the place they saw and accepted.
 */
import type { RunnerStore } from './runner-store.js';
import { sameBox } from '../../shared/geometry/box-math.js';
import { readImageAnswer, readJobAnswer, type AnswerContext } from '../service/service-adapter.js';
import { AnswerNotUnderstoodError } from '../service/service-errors.js';
import { latestStoredCatalog } from '../service/adapter/stored-catalog.js';
import type {
  CorrectionInput,
  CorrectionRow,
  DetectionInput,
  DetectionRow,
  RawAnswerRow,
} from '../store/store-types.js';
import { keptDecision } from './origin-decision.js';
import { readingFor } from './service-reading.js';
import { toDetectionInputs } from './to-detections.js';

type Store = Pick<
  RunnerStore,
  | 'rawAnswers'
  | 'results'
  | 'corrections'
  | 'settings'
  | 'catalog'
  | 'submissions'
  | 'media'
  | 'transaction'
>;

type Origin = 'corner' | 'centre';

export interface OriginRereadSummary {
  /** Files whose model boxes were read again with the confirmed (or decided) origin. */
  files: number;
  /** Corrections moved onto the boxes read again. */
  corrections: number;
  /** What decided, when files were read again with an origin their boxes decided (no person's). */
  decidedBy?: string[];
}

/**
 * Reads again every held answer whose service's origin is now known: a person's choice, else
 * what the service's boxes decided (a later answer with a box outside the picture under one
 * reading, or enough boxes leaning one way). One read by the boxes' evidence stays open to a
 * person's word (rereadDecidedAgain).
 */
export function rereadAssumedOrigins(store: Store): OriginRereadSummary {
  const summary: OriginRereadSummary = { files: 0, corrections: 0 };
  for (const row of store.rawAnswers.originPending()) {
    const reading = readingFor(store, row.serviceUrl);
    const decided = reading.originConfirmed ? null : keptDecision(store, row.serviceUrl);
    // Still nobody's word and nothing decided: held.
    if (!reading.originConfirmed && !decided) continue;
    const origin = decided?.origin ?? reading.boxOrigin;
    store.transaction(() => {
      tally(summary, rereadOne(store, row, 'corner', origin), decided?.why);
      store.rawAnswers.settleOrigin(row.id, decided ? origin : undefined);
    });
  }
  return summary;
}

/**
 * Answers read again with the origin the boxes decided, once a person has said (their choice
 * wins: read back when it is the other origin, then settled) or a later decision replaced it.
 */
export function rereadDecidedAgain(store: Store): OriginRereadSummary {
  const summary: OriginRereadSummary = { files: 0, corrections: 0 };
  for (const row of store.rawAnswers.originDecided()) {
    const from = row.decidedOrigin ?? 'corner';
    const reading = readingFor(store, row.serviceUrl);
    const decided = reading.originConfirmed ? null : keptDecision(store, row.serviceUrl);
    const origin = decided?.origin ?? reading.boxOrigin;
    // Nobody's word, and the boxes still say what it was read with: left as it is.
    if (!reading.originConfirmed && (!decided || origin === from)) continue;
    store.transaction(() => {
      tally(summary, rereadOne(store, row, from, origin), decided?.why);
      store.rawAnswers.settleOrigin(row.id, decided ? origin : undefined);
    });
  }
  return summary;
}

/** Both: what a person's choice (or the start of a run) reads again. */
export function rereadOrigins(store: Store): OriginRereadSummary {
  const a = rereadAssumedOrigins(store);
  const b = store.rawAnswers.countOriginDecided() > 0 ? rereadDecidedAgain(store) : null;
  if (!b) return a;
  const by = [...(a.decidedBy ?? []), ...(b.decidedBy ?? [])];
  return {
    files: a.files + b.files,
    corrections: a.corrections + b.corrections,
    ...(by.length > 0 ? { decidedBy: [...new Set(by)] } : {}),
  };
}

function tally(summary: OriginRereadSummary, moved: number | null, why: string | undefined): void {
  if (moved === null) return;
  summary.files++;
  summary.corrections += moved;
  if (why === undefined) return;
  const by = (summary.decidedBy ??= []);
  if (!by.includes(why)) by.push(why);
}

/**
 * Moved corrections, or null when nothing changed (same origin, superseded, unreadable). `from`:
 * the origin the stored model boxes were read with; replaced only while they are still those.
 */
function rereadOne(store: Store, row: RawAnswerRow, from: Origin, origin: Origin): number | null {
  if (origin === from) return null; // read so already
  const current = store.results.find(row.contentHash, row.solution);
  if (current?.serviceUrl !== row.serviceUrl) return null;
  const assumed = boxesOf(store, row, from);
  const confirmed = boxesOf(store, row, origin);
  if (!assumed || !confirmed) return null;
  const stored = store.results.detections(current.id);
  if (!sameDetections(stored, assumed.detections)) return null;
  const moves = reanchored(
    store.corrections.forContent(row.contentHash, row.solution),
    assumed.detections,
    confirmed.detections,
  );
  store.results.save({
    contentHash: row.contentHash,
    solution: row.solution,
    serviceUrl: row.serviceUrl,
    analysedWidth: current.analysedWidth,
    analysedHeight: current.analysedHeight,
    model: current.model,
    detections: confirmed.detections,
  });
  if (moves.length > 0) store.corrections.putMany(moves);
  return moves.length;
}

function boxesOf(
  store: Store,
  row: RawAnswerRow,
  boxOrigin: Origin,
): { detections: DetectionInput[] } | null {
  const catalog = latestStoredCatalog(store.catalog, row.serviceUrl);
  const solution = catalog?.solutions.find((s) => s.id === row.solution);
  const submission = store.submissions.byId(row.submissionId);
  const media = submission ? store.media.byId(submission.mediaId) : undefined;
  const ctx: AnswerContext = {
    reading: { boxOrigin },
    ...(solution ? { solution } : {}),
    clipDurationMs: media?.durationMs ?? null,
  };
  try {
    if (row.answer === 'imageResult') {
      const answer = readImageAnswer(row.httpStatus, row.body, ctx);
      return { detections: toDetectionInputs(answer.detections, 0, null) };
    }
    const job = readJobAnswer(row.httpStatus, row.body, ctx);
    const frames = job.result?.frames ?? [];
    return {
      detections: frames.flatMap((f) => toDetectionInputs(f.detections, f.index, f.timeMs)),
    };
  } catch (err) {
    if (err instanceof AnswerNotUnderstoodError) return null;
    throw err;
  }
}

/** Frame, then the answer's order within the frame (the store's order: frame, then id). */
function inStoredOrder<T extends { frameIndex: number }>(list: readonly T[]): T[] {
  return list
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.frameIndex - b.d.frameIndex || a.i - b.i)
    .map(({ d }) => d);
}

function sameDetections(stored: readonly DetectionRow[], read: readonly DetectionInput[]): boolean {
  if (stored.length !== read.length) return false;
  const ordered = inStoredOrder(read);
  return stored.every((s, i) => {
    const r = ordered[i] as DetectionInput;
    return s.frameIndex === r.frameIndex && s.label === r.label && sameBox(s.bbox, r.bbox);
  });
}

/** A person accepted the box where it was shown (no box of their own, no rule's decision). */
const acceptedAsShown = (c: CorrectionRow) =>
  c.review === 'accepted' && !c.deleted && c.bbox === null && !c.rule;

/**
 * Each correction standing on an old box (its anchor that box exactly) moved onto the same
 * detection read again; a box a person accepted as shown keeps the place they accepted. The move
 * is nobody's edit (`ownerKept`): a box an auto-accept rule accepted stays the rule's (its batch
 * still undoes it) and follows its detection, as the rule accepted the model's box; a person's
 * corrections stay theirs.
 */
function reanchored(
  corrections: readonly CorrectionRow[],
  before: readonly DetectionInput[],
  after: readonly DetectionInput[],
): CorrectionInput[] {
  const taken = new Set<number>();
  const moves: CorrectionInput[] = [];
  for (const c of corrections) {
    const a = c.anchor;
    if (!a) continue;
    const i = before.findIndex(
      (d, k) =>
        !taken.has(k) &&
        d.frameIndex === c.frameIndex &&
        d.label === a.label &&
        sameBox(d.bbox, a.bbox),
    );
    const next = after[i];
    if (i < 0 || !next) continue;
    taken.add(i);
    moves.push({
      id: c.id,
      contentHash: c.contentHash,
      solution: c.solution,
      frameIndex: c.frameIndex,
      ...(c.keyframe ? { keyframe: c.keyframe } : {}),
      timeMs: c.timeMs,
      anchor: { label: next.label, score: next.score, bbox: next.bbox },
      label: c.label,
      bbox: c.bbox ?? (acceptedAsShown(c) ? a.bbox : null),
      review: c.review,
      deleted: c.deleted,
      track: c.track,
      ownerKept: true,
    });
  }
  return moves;
}
