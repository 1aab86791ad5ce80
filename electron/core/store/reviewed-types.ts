/** Who declared a file reviewed: a person in the review, or an import of existing labels. */
export type ReviewedBy = 'person' | 'import';

/** A file declared reviewed for a solution: its shown boxes are ground truth for the model's. */
export interface ReviewedMark {
  mediaId: number;
  solution: string;
  /** The content it was reviewed at; a file whose bytes changed since is not reviewed. */
  contentHash: string;
  reviewedAt: number;
  reviewedBy: ReviewedBy;
}
