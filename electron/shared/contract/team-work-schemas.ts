/** "Get work" (issue 26 §2): files claimed from the team's hub, on this desktop. */
import { z } from './zod.js';

export const TeamClaimInput = z.object({ count: z.number().int().min(1).max(500).optional() });

export const TeamClaimFile = z.object({
  contentHash: z.string(),
  relPath: z.string(),
  /** This desktop's copy (null: not in this library), and its library id. */
  path: z.string().nullable(),
  mediaId: z.number().int().nullable(),
  leaseUntil: z.number(),
});

export const TeamClaimView = z.object({
  claimed: z.array(TeamClaimFile),
  holding: z.array(TeamClaimFile),
  leaseSeconds: z.number().int(),
});
export type TeamClaimView = z.infer<typeof TeamClaimView>;
