/**
 * Review priority (issue 13 §4): how many corrections a person can expect on a file not reviewed
 * yet, so Review next and the library's "Review priority" sort show the likely mistakes first.
 * Three signs, each counted in expected corrections:
 * - a box within `margin` of its class's calibrated threshold is a coin flip until a person decides
 *   it (accepts, moves or relabels it): half a correction;
 * - a conflict (one object, several classes) needs every box but one rejected;
 * - a file with fewer boxes than the median of its folder's files probably misses the difference.
 * Pure: the caller gathers the boxes as the file shows them (a person's corrections merged in), the
 * thresholds and the folder's median.
 */
import { findConflicts, type ConflictBox } from '../../shared/geometry/conflicts.js';
import type { DetectionOrigin } from '../store/store-types.js';

/** How close to its threshold (in score) a box is still a coin flip. */
export const NEAR_THRESHOLD_MARGIN = 0.1;

export interface PriorityContext {
  /** Calibrated score threshold per class; a class without one has no near-threshold boxes. */
  thresholds: ReadonlyMap<string, number>;
  /** Median number of live boxes over the labelled files of this file's folder and kind. */
  folderMedian: number;
  margin?: number;
}

export interface ReviewPriority {
  /** Boxes neither rejected nor deleted (compared with the folder's median). */
  live: number;
  /** Live model boxes within the margin of their class's threshold. */
  nearThreshold: number;
  /** Boxes a person will have to reject to end the file's conflicts. */
  conflicting: number;
  /** Boxes the file lacks against its folder's median. */
  missing: number;
  /** Expected corrections: the higher, the sooner the file is reviewed. */
  score: number;
}

/** A box as the file shows it; `origin` and `rule` say whether a person has decided it. */
export interface PriorityBox extends ConflictBox {
  origin?: DetectionOrigin | undefined;
  /** The auto-accept rule that accepted it: a machine's decision, still a coin flip. */
  rule?: string | null | undefined;
}

const live = (b: ConflictBox) => !b.deleted && b.review !== 'rejected';
const decidedByPerson = (b: PriorityBox) =>
  b.origin === 'edited' || (b.review === 'accepted' && !b.rule);

export function reviewPriority(
  boxes: readonly PriorityBox[],
  ctx: PriorityContext,
): ReviewPriority {
  const margin = ctx.margin ?? NEAR_THRESHOLD_MARGIN;
  let nearThreshold = 0;
  let liveCount = 0;
  for (const b of boxes) {
    if (!live(b)) continue;
    liveCount++;
    const t = ctx.thresholds.get(b.label);
    const undecided = b.detectionId !== null && !decidedByPerson(b);
    if (undecided && t !== undefined && b.score !== null && Math.abs(b.score - t) <= margin) {
      nearThreshold++;
    }
  }
  const conflicting = findConflicts(boxes).reduce((n, group) => n + group.length - 1, 0);
  const parts = { live: liveCount, nearThreshold, conflicting, missing: 0, score: 0 };
  return withFolderMedian(parts, ctx.folderMedian);
}

/**
 * The same priority against another folder median: a library scan scores each file's boxes
 * once, then compares it with its folder when every median is known.
 */
export function withFolderMedian(p: ReviewPriority, folderMedian: number): ReviewPriority {
  const missing = Math.max(0, folderMedian - p.live);
  return { ...p, missing, score: p.nearThreshold / 2 + p.conflicting + missing };
}

/** The median of counts (the lower middle of an even list, so it is always a count); 0 if none. */
export function medianCount(counts: readonly number[]): number {
  if (counts.length === 0) return 0;
  const sorted = [...counts].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}
