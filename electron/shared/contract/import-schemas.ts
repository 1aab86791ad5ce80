/** The import dialog: one call that makes a label source's boxes the labels of the library's files. */
import { z } from './zod.js';

export const ImportFormat = z.enum(['coco', 'yolo', 'voc', 'csv']);
export type ImportFormat = z.infer<typeof ImportFormat>;

export const ImportInput = z.object({
  format: ImportFormat,
  /** An absolute path: a COCO/CSV/VOC file, or a folder (YOLO, VOC, or several COCO/CSV files). */
  source: z.string().trim().min(1).max(4096),
  solution: z.string().min(1).max(200),
});

export const ImportIssue = z.object({
  /** Where in the source (a file of it, or an entry inside). */
  source: z.string(),
  /** The library file concerned, once known. */
  path: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type ImportIssue = z.infer<typeof ImportIssue>;

export const ImportResult = z.object({
  /** Files whose labels were written. */
  files: z.number(),
  /** Files that already had exactly these labels (imported before). */
  unchanged: z.number(),
  boxes: z.number(),
  /** The first issues (all of them up to a thousand); `issueCount` says how many in all. */
  issues: z.array(ImportIssue),
  issueCount: z.number(),
});
export type ImportResult = z.infer<typeof ImportResult>;
