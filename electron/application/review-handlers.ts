/** The review calls: corrected boxes, edits (each saved at once, with its undo), re-analysis. */
import type { TrackedBox } from '../core/review/export-boxes.js';
import { ReviewService, type ReviewReader } from '../core/review/review-service.js';
import type { MediaRecord } from '../core/store/store-types.js';
import type { Handlers } from '../shared/contract/index.js';
import { packReviewBoxes } from '../shared/contract/packed-review-boxes.js';
import type { ReviewBox } from '../shared/contract/review-schemas.js';
import type { RunController } from './run-controller.js';
import type { ClipTracks } from './tracking/clip-tracks.js';

type ReviewHandlers = Pick<
  Handlers,
  | 'review.boxes'
  | 'review.boxesPacked'
  | 'review.edit'
  | 'review.editMany'
  | 'review.acceptAll'
  | 'review.rejectAll'
  | 'runs.estimateReanalyse'
  | 'runs.reanalyse'
>;

export function toReviewBox(b: TrackedBox): ReviewBox {
  return {
    key: b.key,
    detectionId: b.detectionId,
    correctionId: b.correctionId,
    frameIndex: b.frameIndex,
    keyframe: b.keyframe,
    timeMs: b.timeMs,
    label: b.label,
    score: b.score,
    bbox: b.bbox,
    origin: b.origin,
    review: b.review,
    deleted: b.deleted,
    ...(b.crowd === true ? { crowd: true } : {}),
    model: b.model,
    trackId: b.trackId ?? null,
    rule: b.rule,
  };
}

export function reviewHandlers(
  store: ReviewReader,
  runs: RunController,
  changed: (media: MediaRecord) => void,
  tracks?: ClipTracks,
): ReviewHandlers {
  const review = new ReviewService(store, tracks?.cache);
  // A clip's model tracks come from the tracker's thread before a call reads its boxes.
  const first = <Q extends { id: number; solution: string }, R>(h: (q: Q) => R) =>
    tracks ? tracks.first(h) : h;
  const bulk = (
    q: {
      id: number;
      solution: string;
      minScore: number;
      classes?: string[] | undefined;
      frameIndex?: number | undefined;
    },
    kind: 'accept' | 'reject',
  ) => {
    const r = review.bulk(
      q.id,
      q.solution,
      (b) =>
        (b.score === null || b.score >= q.minScore) &&
        (!q.classes || q.classes.includes(b.label)) &&
        (q.frameIndex === undefined || b.frameIndex === q.frameIndex) &&
        b.review !== (kind === 'accept' ? 'accepted' : 'rejected'),
      (b) => ({ kind, box: { detectionId: b.detectionId, correctionId: b.correctionId } }),
    );
    if (r.inverse.length) changed(r.media);
    return { changed: r.inverse.length, inverse: r.inverse };
  };
  const boxesOf = (q: {
    id: number;
    solution: string;
    includeDeleted: boolean;
    frameIndex?: number | undefined;
  }) => {
    const { result, boxes } = review.item(q.id, q.solution);
    return {
      analysedWidth: result?.analysedWidth ?? null,
      analysedHeight: result?.analysedHeight ?? null,
      boxes: boxes
        .filter(
          (b) =>
            (q.includeDeleted || !b.deleted) &&
            (q.frameIndex === undefined || b.frameIndex === q.frameIndex),
        )
        .map(toReviewBox),
    };
  };
  return {
    'review.boxes': first(boxesOf),
    'review.boxesPacked': first((q) => {
      const { boxes, ...size } = boxesOf(q);
      const p = packReviewBoxes(boxes);
      const base64 = (a: Float64Array | Int32Array) =>
        Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
      return { ...size, packed: { ...p, numbers: base64(p.numbers), ints: base64(p.ints) } };
    }),
    'review.edit': first(({ id, solution, edit }) => {
      const r = review.edit(id, solution, edit);
      changed(r.media);
      return { box: r.box && toReviewBox(r.box), inverse: r.inverse };
    }),
    'review.editMany': first(({ id, solution, edits }) => {
      const r = review.editMany(id, solution, edits);
      changed(r.media);
      return { changed: edits.length, inverse: r.inverse };
    }),
    'review.acceptAll': first((q) => bulk(q, 'accept')),
    'review.rejectAll': first((q) => bulk(q, 'reject')),
    'runs.estimateReanalyse': (scope) => runs.estimate(scope, Date.now()),
    'runs.reanalyse': (request) =>
      // The Re-analyse dialog has shown the estimate (and an unknown cost) and been confirmed.
      runs.start({
        ...request,
        retryUncertain: false,
        reanalyseBefore: Date.now(),
        acceptUnknownCost: true,
      }),
  };
}
