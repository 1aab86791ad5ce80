/** Review next (issue 13 §4): mark the open file reviewed and go on to the likeliest mistakes. */
import { Id } from './common-schemas.js';
import { z } from './zod.js';

export const ReviewNextInput = z.object({ id: Id, solution: z.string().min(1).max(200) });

export const ReviewNextResult = z.object({
  /** The open file is now marked reviewed (false when it has no labels to review yet). */
  marked: z.boolean(),
  /** The file with the most expected corrections not reviewed yet; null: none is left. */
  next: Id.nullable(),
  /** Labelled files not reviewed yet, after this one. */
  remaining: z.number().int().min(0),
});
export type ReviewNextResult = z.infer<typeof ReviewNextResult>;
