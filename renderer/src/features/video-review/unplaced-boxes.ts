/**
 * Issue 28: a model box of a clip that the tracker could not place in a track (too few boxes to
 * confirm one, or a stray false box). Exports give it a track of its own; the review marks it
 * unconfirmed (dotted on the stage; in the Boxes list "unconfirmed" in its state and first in its
 * accessible name, "unconfirmed person 0.42") so a person knows no track vouches for it. A person's box, an accepted one or an interpolated one
 * is always in a track; a rejected one is in none on purpose.
 */
import type { ReviewBox } from '@shared/contract/review-schemas.js';

export function isUnplaced(b: ReviewBox & { interpolated?: boolean }): boolean {
  return (
    b.trackId === null &&
    b.origin === 'model' &&
    b.review === 'pending' &&
    !b.deleted &&
    b.interpolated !== true
  );
}

/** Another member's version of a box in conflict (review/use-team-conflicts.ts): drawn dashed. */
interface VersionBox {
  ghost: true;
}

/** A version is never the tracker's box: only the review's own boxes can be unplaced. */
const unplaced = (b: ReviewBox | VersionBox) => !('ghost' in b) && isUnplaced(b);

/** The boxes to draw, unplaced ones flagged (the same array when there is none). */
export function markUnplaced<B extends ReviewBox | VersionBox>(
  boxes: B[],
): (B & { unconfirmed?: boolean })[] {
  if (!boxes.some(unplaced)) return boxes;
  return boxes.map((b) => (unplaced(b) ? { ...b, unconfirmed: true } : b));
}
