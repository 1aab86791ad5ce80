/** The Runs screen: estimate, start/pause/resume/cancel, progress, problems and history. */
import { FileIssue, Id } from './common-schemas.js';
import { z } from './zod.js';

/** What to label: whole folders, or chosen library items. */
export const RunScope = z.object({
  solution: z.string().min(1).max(200),
  folderIds: z.array(Id).max(10_000).optional(),
  mediaIds: z.array(Id).max(200_000).optional(),
});
export type RunScope = z.infer<typeof RunScope>;

export const Estimate = z.object({
  solution: z.string(),
  images: z.number(),
  clips: z.number(),
  clipFrames: z.number(),
  /** null while the cost is unknown (not published by the service, not learnt yet). */
  imageCost: z.number().nullable(),
  frameCost: z.number().nullable(),
  /** Frames of the files whose cost is known. */
  frames: z.number(),
  /** Files whose cost is unknown until the first of them is sent (not in `frames`). */
  costUnknown: z.number(),
  alreadyLabelled: z.number(),
  refused: z.number(),
  uncertain: z.number(),
  /** Files not read yet (hash and probe still running): not in the figures above. */
  pending: z.number(),
  /** Files the run going now has sent or is sending: in its own counts, not in the figures above. */
  inRun: z.number().optional(),
  /** In a team project: files the team already answered (taken from the hub, free), not above. */
  teamHas: z.number().optional(),
  /** In a team project: why the hub could not be asked (its files then count as to pay). */
  teamAway: z.string().nullable().optional(),
  /** The key's figures, null without a key or offline. */
  remaining: z.number().nullable(),
  hourRemaining: z.number().nullable(),
  fits: z.boolean().nullable(),
  fitsThisHour: z.boolean().nullable(),
});
export type Estimate = z.infer<typeof Estimate>;

export const StartRunInput = RunScope.extend({
  budget: z.number().int().min(0).nullable().default(null),
  hourBudget: z.number().int().min(0).nullable().default(null),
  /** Send again files whose last call may have been charged (explicit Retry). */
  retryUncertain: z.boolean().default(false),
  /** The person accepted that the cost is unknown until the first file is sent. */
  acceptUnknownCost: z.boolean().optional(),
});

export const RunPhase = z.enum([
  'preparing',
  'running',
  'pausing',
  'paused',
  'waiting-for-credits',
  'cancelling',
  'done',
  'stopped',
  'cancelled',
  'failed',
]);
export type RunPhase = z.infer<typeof RunPhase>;

export const RunState = z.object({
  runKey: z.string(),
  phase: RunPhase,
  solution: z.string(),
  total: z.number(),
  completed: z.number(),
  labelled: z.number(),
  reused: z.number(),
  failed: z.number(),
  uncertain: z.number(),
  framesSpent: z.number(),
  estimateFrames: z.number(),
  ratePerSec: z.number(),
  etaSec: z.number().nullable(),
  /** When waiting for credits: when sending resumes (ms epoch), if known. */
  resumesAt: z.number().nullable(),
  /** One sentence on why it stopped or waits. */
  detail: z.string().nullable(),
  /**
   * Lines the run said once and keeps saying until it is gone: the box origin assumed, held
   * answers read again once it was decided (issue 23). Absent: none.
   */
  notes: z.array(z.string()).optional(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
});
export type RunState = z.infer<typeof RunState>;

export const RunProblems = z.object({
  failed: z.array(FileIssue.extend({ mediaId: Id })),
  uncertain: z.array(FileIssue.extend({ mediaId: Id })),
});
export type RunProblems = z.infer<typeof RunProblems>;

export const RunRecord = z.object({
  id: Id,
  solution: z.string(),
  serviceUrl: z.string(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  status: z.string(),
  estimateFrames: z.number(),
  framesSpent: z.number(),
  files: z.number(),
});
export type RunRecord = z.infer<typeof RunRecord>;

export const RetryInput = z.object({
  solution: z.string().min(1).max(200),
  mediaIds: z.array(Id).min(1).max(200_000),
});

export const AutoLabel = z.object({
  enabled: z.boolean(),
  solution: z.string().min(1).max(200),
  /** Frames auto-labelling may spend in this session (null: no limit beyond the key). */
  budget: z.number().int().min(0).nullable(),
  spent: z.number(),
});
export type AutoLabel = z.infer<typeof AutoLabel>;
export const AutoLabelInput = AutoLabel.omit({ spent: true });
