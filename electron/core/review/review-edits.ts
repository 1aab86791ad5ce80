/**
 * One edit of one box as a correction to store, and the edit that undoes it. Pure: the caller
 * stores the correction (one transaction) and merges again.
 */
import type { ReviewEdit } from '../../shared/contract/review-schemas.js';
import { clampBox, sameBox, type NormBox } from '../../shared/geometry/box-math.js';
import type { CorrectionInput, CorrectionRow, ReviewState } from '../store/store-types.js';
import type { MergedBox } from './merge-corrections.js';

// One definition of an edit: the contract's, which the app sends and core applies.
export type { ReviewEdit };

/** Which box: its model detection, its correction, or both (as `MergedBox` gives them). */
export interface BoxRef {
  detectionId: number | null;
  correctionId: number | null;
}

export class ReviewEditError extends Error {
  override readonly name = 'ReviewEditError';
  constructor(
    readonly code: 'unknown_box' | 'bad_box',
    message: string,
  ) {
    super(message);
  }
}

const REVIEW_EDIT: Record<ReviewState, 'accept' | 'reject' | 'reset'> = {
  accepted: 'accept',
  rejected: 'reject',
  pending: 'reset',
};

/** Finds the box an edit names among an item's merged boxes (deleted ones included). */
export function findBox(boxes: readonly MergedBox[], ref: BoxRef): MergedBox | undefined {
  return boxes.find(
    (b) =>
      (ref.detectionId !== null && b.detectionId === ref.detectionId) ||
      (ref.correctionId !== null && b.correctionId === ref.correctionId),
  );
}

/** The correction that states a merged box exactly as it is now (its anchor refreshed). */
export function correctionOf(
  box: MergedBox,
  content: { contentHash: string; solution: string },
): CorrectionInput {
  const model = box.model;
  return {
    ...(box.correctionId !== null ? { id: box.correctionId } : {}),
    contentHash: content.contentHash,
    solution: content.solution,
    frameIndex: box.frameIndex,
    ...(box.keyframe === true ? { keyframe: true as const } : {}),
    timeMs: box.timeMs,
    anchor: model,
    label: model && box.label === model.label ? null : box.label,
    bbox: model && sameBox(box.bbox, model.bbox) ? null : box.bbox,
    review: box.review,
    deleted: box.deleted,
    track: box.personTrack,
  };
}

function checkedBox(bbox: NormBox): NormBox {
  const b = clampBox(bbox);
  if (!b) throw new ReviewEditError('bad_box', 'The box is not a finite rectangle.');
  return b;
}

export interface PlannedEdit {
  correction: CorrectionInput;
  /** The edit that undoes this one, once the correction is stored (it may need its new id). */
  inverse(stored: CorrectionRow): ReviewEdit;
}

/** Plans an edit against the item's merged boxes (deleted ones included). */
export function planEdit(
  boxes: readonly MergedBox[],
  edit: ReviewEdit,
  content: { contentHash: string; solution: string },
): PlannedEdit {
  if (edit.kind === 'add') {
    return {
      correction: {
        contentHash: content.contentHash,
        solution: content.solution,
        frameIndex: edit.frameIndex,
        ...(edit.keyframe === true ? { keyframe: true as const } : {}),
        timeMs: edit.timeMs,
        anchor: null,
        label: edit.label,
        bbox: checkedBox(edit.bbox),
        // A box a person draws is one they vouch for.
        review: edit.review ?? 'accepted',
        deleted: false,
        track: edit.track ?? null,
      },
      inverse: (stored) => ({
        kind: 'delete',
        box: { detectionId: null, correctionId: stored.id },
      }),
    };
  }
  const box = findBox(boxes, edit.box);
  if (!box) throw new ReviewEditError('unknown_box', 'That box is no longer there.');
  const next = { ...box };
  const ref = (stored: CorrectionRow): BoxRef => ({
    detectionId: box.detectionId,
    correctionId: stored.id,
  });
  let inverse: (stored: CorrectionRow) => ReviewEdit;
  switch (edit.kind) {
    case 'move':
    case 'resize':
      next.bbox = checkedBox(edit.bbox);
      inverse = (s) => ({ kind: edit.kind, box: ref(s), bbox: box.bbox });
      break;
    case 'relabel':
      next.label = edit.label;
      inverse = (s) => ({ kind: 'relabel', box: ref(s), label: box.label });
      break;
    case 'track':
      next.personTrack = edit.track;
      inverse = (s) => ({ kind: 'track', box: ref(s), track: box.personTrack });
      break;
    case 'delete':
    case 'restore':
      next.deleted = edit.kind === 'delete';
      inverse = (s) => ({ kind: box.deleted ? 'delete' : 'restore', box: ref(s) });
      break;
    case 'accept':
    case 'reject':
    case 'reset':
      next.review =
        edit.kind === 'accept' ? 'accepted' : edit.kind === 'reject' ? 'rejected' : 'pending';
      inverse = (s) => ({ kind: REVIEW_EDIT[box.review], box: ref(s) });
      break;
  }
  return { correction: correctionOf(next, content), inverse };
}
