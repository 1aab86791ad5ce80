/** The Folders screen: library folders, their counts, watching and per-file errors. */
import { FileIssue, Id } from './common-schemas.js';
import { z } from './zod.js';

export const FolderCounts = z.object({
  images: z.number(),
  clips: z.number(),
  labelled: z.number(),
  failed: z.number(),
  /** Present, readable and not labelled yet with the current solution. */
  new: z.number(),
});

export const FolderView = z.object({
  id: Id,
  path: z.string(),
  watching: z.boolean(),
  /** Polls instead of native events (network drives). */
  polling: z.boolean(),
  /** Labels new files as they arrive (with the auto-label budget). */
  autoLabel: z.boolean(),
  scanning: z.boolean(),
  /** The folder is gone (deleted, moved, a drive unplugged): watching is paused until it
   *  returns, and nothing of its items is removed meanwhile. */
  missing: z.boolean(),
  lastScanAt: z.number().nullable(),
  counts: FolderCounts,
  /** Files that could not be read or decoded, and entries a scan left out (linked folders). */
  errors: z.number(),
});
export type FolderView = z.infer<typeof FolderView>;

export const AddFolderInput = z.object({ path: z.string().min(1).max(4096) });
export const FolderIdInput = z.object({ id: Id });
export const WatchInput = z.object({
  id: Id,
  watching: z.boolean(),
  polling: z.boolean().optional(),
  autoLabel: z.boolean().optional(),
});
export const FolderIssuesInput = z.object({
  id: Id,
  limit: z.number().int().min(1).max(5000).default(500),
});
export const FolderIssues = z.array(FileIssue);
