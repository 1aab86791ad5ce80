/** The Team screen and the shell's team badge: one project shared through a PostgreSQL hub. */
import { BoxSchema } from '../geometry/box.js';
import { z } from './zod.js';

export const TeamRole = z.enum(['lead', 'annotator']);

/** This desktop's side of its project; `project` null: in no project. */
export const TeamState = z.object({
  project: z.string().nullable(),
  member: z.string().nullable(),
  role: TeamRole.nullable(),
  /** The hub's address, never with its password. */
  hub: z.string().nullable(),
  folder: z.string().nullable(),
  online: z.boolean(),
  /** Why the hub could not be reached, when offline. */
  offlineReason: z.string().nullable(),
  pendingPush: z.number().int(),
  /** null while the hub's counts are not known (offline, not asked yet). */
  pendingPull: z.number().int().nullable(),
  lastSyncAt: z.number().nullable(),
  conflicts: z.number().int(),
  files: z.number().int().nullable(),
  labelledFiles: z.number().int().nullable(),
  /** A failure that stopped syncing (a refusal, a removed member), in one sentence with its code. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type TeamState = z.infer<typeof TeamState>;

export const TeamLinkInput = z.object({
  create: z.boolean(),
  /** postgresql://ROLE[:PASSWORD]@HOST[:PORT]/DATABASE[?…]: a password in it goes to the keychain. */
  hub: z.string().min(1).max(4000),
  project: z.string().min(1).max(100),
  folder: z.string().min(1).max(4096),
  /** Typed apart from the address; stored in the keychain only, never sent back. */
  password: z.string().max(1000).optional(),
});

export const TeamMemberInput = z.object({
  role: z.string().min(1).max(63),
  as: TeamRole.default('annotator'),
});

export const TeamConflictVersion = z.object({
  change: z.string(),
  member: z.string(),
  mine: z.boolean(),
  at: z.number(),
  label: z.string().nullable(),
  review: z.enum(['pending', 'accepted', 'rejected']),
  deleted: z.boolean(),
  bbox: BoxSchema.nullable(),
});

export const TeamConflictView = z.object({
  id: z.string(),
  contentHash: z.string(),
  solution: z.string(),
  /** A sample's index; with `keyframe`, a clip frame between samples. */
  frameIndex: z.number().int(),
  keyframe: z.literal(true).optional(),
  path: z.string().nullable(),
  /** This library's correction of the box (the review's box in conflict). */
  correctionId: z.number().int().nullable(),
  versions: z.array(TeamConflictVersion),
  /** The version the box shows until a person keeps one (the same on every desktop). */
  shown: z.string().nullable(),
  canResolve: z.boolean(),
});
export type TeamConflictView = z.infer<typeof TeamConflictView>;

export const TeamConflictsInput = z.object({
  contentHash: z.string().max(200).optional(),
  /** The conflicts of one library item's content (the review asks by the item it shows). */
  mediaId: z.number().int().positive().optional(),
});

export const TeamResolveInput = z.object({
  /** Conflict ids; empty with `all`. */
  ids: z.array(z.string().max(100)).max(100_000).default([]),
  all: z.boolean().default(false),
  /** mine, theirs, or a member's role. */
  keep: z.string().min(1).max(63),
});

export const TeamResolveResult = z.object({
  resolved: z.array(z.object({ id: z.string(), kept: z.string(), member: z.string() })),
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
});
