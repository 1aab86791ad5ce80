/** Which boxes the review shows: the score threshold and the class filter. Pure. */
import type { ReviewBox } from '@shared/contract/review-schemas.js';

export interface BoxFilter {
  minScore: number;
  /** null: every class. */
  label: string | null;
}

/** A box without a score (a person's) is never hidden by the threshold. */
export function shownBy(filter: BoxFilter): (b: ReviewBox) => boolean {
  return (b) =>
    (b.score === null || b.score >= filter.minScore || b.origin === 'added') &&
    (filter.label === null || b.label === filter.label);
}
