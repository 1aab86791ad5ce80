/**
 * What an evaluation reads and answers. One "image" is what COCO calls an image: a photo, or one
 * analysed frame of a clip. Boxes are normalised (IoU does not change under scaling of the axes).
 */
import type { NormBox } from '../../shared/geometry/box-math.js';
import type { ClassThreshold } from './calibrate.js';

/** A box the file shows (accepted, edited, drawn or still pending): ground truth. */
export interface TruthBox {
  /** The review's key of the box, so a miss opens the review on it. */
  key: string;
  label: string;
  bbox: NormBox;
  /** A crowd region (COCO's `iscrowd`): not an object to find; model boxes in it are ignored. */
  crowd?: boolean;
  /** Its area in pixels as its source gave it (COCO's annotation `area`); else the box's own. */
  area?: number;
}

/** A box as the model gave it (its own stored output, not a person's correction). */
export interface ModelBox {
  key: string;
  label: string;
  /** Null when the service gave none. */
  score: number | null;
  bbox: NormBox;
}

/**
 * The order model boxes are ranked in: by score, and a box without one after every scored box
 * (the service did not say how sure it is, so it is read as the least sure; ties keep their order).
 */
export const rankOf = (m: Pick<ModelBox, 'score'>): number => m.score ?? -Infinity;

export interface EvalImage {
  mediaId: number;
  path: string;
  frameIndex: number;
  /** The picture's size in pixels, for COCO's area ranges (unknown: no area-range figures). */
  width?: number | null;
  height?: number | null;
  truth: readonly TruthBox[];
  model: readonly ModelBox[];
}

export interface EvaluationOptions {
  /** Model boxes under this score are left out of the counts and the confusion table (not AP). */
  minScore?: number;
  /** How many mistakes of each kind to list (the most confident first). */
  mistakeLimit?: number;
  /** The precision per-class thresholds are proposed for (default 0.95). */
  targetPrecision?: number;
  /**
   * Also COCOeval's twelve figures per area range (`coco`): asked for, as every range matches its
   * boxes again and keeps their scores (the Quality screen does not show them yet).
   */
  coco?: boolean;
}

export interface ClassQuality {
  label: string;
  /** At IoU 0.5 and the minimum score. */
  tp: number;
  fp: number;
  fn: number;
  /** -1 when undefined (no model box; no truth box), as COCO marks what it cannot compute. */
  precision: number;
  recall: number;
  /** -1 when the reviewed files hold no truth box of this class (COCO leaves it out of the mean). */
  ap50: number;
  ap: number;
  /** Interpolated precision at recall 0, 0.01, …, 1 at IoU 0.5 (COCO's 101 points); [] with no truth. */
  curve: number[];
}

export type MistakeKind = 'false-positive' | 'miss' | 'confusion';

export interface Mistake {
  kind: MistakeKind;
  mediaId: number;
  path: string;
  frameIndex: number;
  /** The review box to open on: the model's box, or for a miss the person's box. */
  boxKey: string;
  truthLabel: string | null;
  modelLabel: string | null;
  score: number | null;
  bbox: NormBox;
}

/** Which class the model said (column) where a person said another (row); '' is nothing. */
export interface ConfusionTable {
  labels: string[];
  /** counts[truth][model] over `labels` plus a last entry for nothing (a miss, a false positive). */
  counts: number[][];
}

export interface EvaluationReport {
  reviewedFiles: number;
  images: number;
  classes: ClassQuality[];
  map50: number;
  map: number;
  confusion: ConfusionTable;
  mistakes: Mistake[];
  mistakeTotals: Record<MistakeKind, number>;
  /** A score threshold per class for the target precision, where the evidence carries one. */
  calibration: ClassThreshold[];
  /** COCOeval's twelve summary figures, and per class AP and AR by area range. */
  /** When asked for (`EvaluationOptions.coco`). */
  coco?: CocoSummary;
}

/** COCO's area ranges (coco-summary.ts holds their bounds). */
export type AreaRange = 'all' | 'small' | 'medium' | 'large';

export interface RangeFigures {
  /** -1 when no truth box of the class is in the range (COCO leaves it out of the mean). */
  ap: number;
  /** AR at MAX_DETS[0], [1], [2] boxes per image. */
  ar: [number, number, number];
}

export interface CocoSummary {
  /** COCOeval.stats in its order: AP, AP50, AP75, AP small/medium/large, AR1, AR10, AR100, AR small/medium/large. */
  stats: number[];
  classes: { label: string; ranges: Record<AreaRange, RangeFigures> }[];
}
