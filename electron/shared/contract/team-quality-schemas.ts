/** The Team screen's lead view: the team's quality report (README "Working as a team"). */
import { z } from './zod.js';

const Share = z.number().min(0).max(1).nullable();

const Figures = z.object({
  a: z.number().int(),
  b: z.number().int(),
  matched: z.number().int(),
  f1: Share,
  meanIou: Share,
});

const Scores = z.object({
  tp: z.number().int(),
  fp: z.number().int(),
  fn: z.number().int(),
  precision: Share,
  recall: Share,
});

export const TeamReportView = z.object({
  overlapShare: z.number().min(0).max(1),
  overlapFiles: z.number().int(),
  settledFiles: z.number().int(),
  honeypotFiles: z.number().int(),
  members: z.array(
    z.object({
      member: z.string(),
      role: z.enum(['lead', 'annotator']),
      filesReviewed: z.number().int(),
      boxesChanged: z.number().int(),
      activeSeconds: z.number(),
      framesSpent: z.number().int(),
      agreement: z.object({ f1: Share, meanIou: Share, files: z.number().int() }),
      // seen: honeypots whose truth this member may have pulled before they were marked (not blind).
      honeypots: Scores.extend({ files: z.number().int(), seen: z.number().int() }),
    }),
  ),
  pairs: z.array(
    z.object({
      members: z.tuple([z.string(), z.string()]),
      files: z.number().int(),
      overall: Figures,
      classes: z.array(Figures.extend({ label: z.string() })),
    }),
  ),
  model: Scores.extend({
    files: z.number().int(),
    map50: Share,
    classes: z.array(z.object({ label: z.string(), precision: Share, recall: Share, ap50: Share })),
  }),
});
export type TeamReportView = z.infer<typeof TeamReportView>;
