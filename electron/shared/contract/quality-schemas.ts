/**
 * Model quality: which files are reviewed (their shown boxes are ground truth), and how the
 * model's own boxes measure against them (see electron/core/evaluation).
 */
import { Id } from './common-schemas.js';
import { z } from './zod.js';
import { BoxSchema } from '../geometry/box.js';

const Solution = z.string().min(1).max(200);

export const ReviewedInput = z.object({ id: Id, solution: Solution });
export const MarkReviewedInput = ReviewedInput.extend({ reviewed: z.boolean() });

export const ReviewedState = z.object({
  reviewed: z.boolean(),
  by: z.enum(['person', 'import']).nullable(),
  at: z.number().nullable(),
});
export type ReviewedState = z.infer<typeof ReviewedState>;

/** A precision a person may aim at (the Quality screen's "Target precision"). */
export const TargetPrecision = z.number().min(0.5).max(0.999);

export const EvaluateInput = z.object({
  solution: Solution,
  minScore: z.number().min(0).max(1).default(0),
  /** Per-class score thresholds are proposed for this precision; absent: the stored target. */
  targetPrecision: TargetPrecision.optional(),
  /** Also COCOeval's twelve summary figures (`coco`): slower, so asked for only when shown. */
  coco: z.boolean().optional(),
});

export const QualityTargetInput = z.object({ solution: Solution });
export const SetQualityTargetInput = QualityTargetInput.extend({
  targetPrecision: TargetPrecision,
});
export const QualityTarget = z.object({ solution: z.string(), targetPrecision: z.number() });
export type QualityTarget = z.infer<typeof QualityTarget>;

export const ClassQuality = z.object({
  label: z.string(),
  tp: z.number(),
  fp: z.number(),
  fn: z.number(),
  /** -1 where a figure is undefined (COCO's convention). */
  precision: z.number(),
  recall: z.number(),
  ap50: z.number(),
  ap: z.number(),
  /** Precision at recall 0, 0.01, …, 1 (IoU 0.5). */
  curve: z.array(z.number()),
});
export type ClassQuality = z.infer<typeof ClassQuality>;

export const Mistake = z.object({
  kind: z.enum(['false-positive', 'miss', 'confusion']),
  mediaId: Id,
  path: z.string(),
  frameIndex: z.number(),
  /** The review box it opens on. */
  boxKey: z.string(),
  truthLabel: z.string().nullable(),
  modelLabel: z.string().nullable(),
  score: z.number().nullable(),
  bbox: BoxSchema,
});
export type Mistake = z.infer<typeof Mistake>;

export const ClassThreshold = z.object({
  label: z.string(),
  /** Null: no threshold, `reason` says why. */
  threshold: z.number().nullable(),
  /**
   * Reviewed model boxes at or above the threshold (without one: the best cut's, the top-scored
   * boxes whose interval's lower end is highest).
   */
  boxes: z.number(),
  precision: z.number(),
  /** The 95 % Wilson interval of that precision. */
  interval: z.object({ low: z.number(), high: z.number() }).nullable(),
  reason: z.enum(['ok', 'no-boxes', 'too-little-evidence', 'below-target']),
  /** Too little evidence at a precision above the target: about how many boxes would carry it. */
  needed: z.number().nullable(),
});
export type ClassThreshold = z.infer<typeof ClassThreshold>;

export const AutoAcceptInput = z.object({
  solution: Solution,
  targetPrecision: TargetPrecision.default(0.95),
  /** False: only count what it would accept (the confirmation); true: accept, one undoable step. */
  apply: z.boolean().default(false),
});

export const AutoAcceptResult = z.object({
  /** The batch to undo; null when nothing was accepted (or `apply` was false). */
  batchId: Id.nullable(),
  boxes: z.number(),
  files: z.number(),
  /** The classes with a threshold at this target: the only ones a rule accepts. */
  classes: z.array(z.object({ label: z.string(), threshold: z.number() })),
  /** The classes without one, each with why (thresholdReason says it in words). */
  withheld: z.array(ClassThreshold),
  targetPrecision: z.number(),
});
export type AutoAcceptResult = z.infer<typeof AutoAcceptResult>;

export const UndoAutoAcceptInput = z.object({ batchId: Id });
export const LastAutoAcceptInput = z.object({ solution: Solution });
/** The newest auto-accept of the solution not undone yet (what "Undo auto-accept" undoes). */
export const LastAutoAccept = z
  .object({ batchId: Id, boxes: z.number(), files: z.number() })
  .nullable();
export const UndoAutoAcceptResult = z.object({ boxes: z.number() });

export const QualityReport = z.object({
  solution: z.string(),
  minScore: z.number(),
  targetPrecision: z.number(),
  reviewedFiles: z.number(),
  classes: z.array(ClassQuality),
  map50: z.number(),
  map: z.number(),
  /** counts[truth][model] over labels plus a last "nothing" entry. */
  confusion: z.object({ labels: z.array(z.string()), counts: z.array(z.array(z.number())) }),
  mistakes: z.array(Mistake),
  mistakeTotals: z.object({
    'false-positive': z.number(),
    miss: z.number(),
    confusion: z.number(),
  }),
  calibration: z.array(ClassThreshold),
  /**
   * COCOeval's twelve `stats` (AP, AP50, AP75, AP small/medium/large, AR at 1/10/100 boxes, AR
   * small/medium/large), and per class AP and AR (at 1/10/100) by area range; -1 as COCO's.
   */
  coco: z
    .object({
      stats: z.array(z.number()),
      classes: z.array(
        z.object({
          label: z.string(),
          ranges: z.record(
            z.enum(['all', 'small', 'medium', 'large']),
            z.object({ ap: z.number(), ar: z.tuple([z.number(), z.number(), z.number()]) }),
          ),
        }),
      ),
    })
    .optional(),
  elapsedMs: z.number(),
});
export type QualityReport = z.infer<typeof QualityReport>;
