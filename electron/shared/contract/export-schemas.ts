/** The export dialog: one call that streams the corrected boxes to disk, with progress events. */
import { Id } from './common-schemas.js';
import { LibraryFilter } from './library-schemas.js';
import { z } from './zod.js';

export const ExportFormat = z.enum(['coco', 'coco-results', 'yolo', 'voc', 'csv', 'mot', 'events']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('filter'), filter: LibraryFilter }),
  z.object({ kind: z.literal('selection'), ids: z.array(Id).min(1).max(200_000) }),
]);
export type ExportScope = z.infer<typeof ExportScope>;

export const ExportStartInput = z.object({
  format: ExportFormat,
  /** An absolute path: a file for COCO, CSV and events, a new or empty folder for YOLO, VOC and MOT. */
  destination: z.string().trim().min(1).max(4096),
  solution: z.string().min(1).max(200),
  scope: ExportScope,
  onlyAccepted: z.boolean().default(false),
  /** With `onlyAccepted`: leave out boxes an auto-accept rule accepted. */
  byPerson: z.boolean().optional(),
  /** Absent: the library's minimum score (library.minScore); 0 keeps every box. */
  minScore: z.number().min(0).max(1).optional(),
  /** Only these labels (absent: every class). */
  classes: z.array(z.string().min(1).max(200)).max(1000).optional(),
  /** COCO, YOLO, VOC: write clips' analysed frames as JPEGs and export them as images. */
  clipFrames: z.boolean().default(false),
  /** MOT, CSV, clips as frames: every frame at the clip's own rate, tracks interpolated. */
  interpolate: z.boolean().optional(),
  /** Replace an existing file, or a folder holding a previous export (the CLI's --force). */
  replace: z.boolean().default(false),
});

export const ExportProgress = z.object({
  destination: z.string(),
  files: z.number(),
  boxes: z.number(),
  skipped: z.number(),
  /** Items in scope, when known (for a progress bar). */
  total: z.number().nullable(),
  done: z.boolean(),
});
export type ExportProgress = z.infer<typeof ExportProgress>;

export const ExportResult = z.object({
  destination: z.string(),
  files: z.number(),
  boxes: z.number(),
  /** Items the format cannot hold (clips in COCO without clip frames). */
  skipped: z.number(),
  written: z.array(z.string()),
  /** Where the clips' frames went, when asked for. */
  framesDir: z.string().nullable(),
});
export type ExportResult = z.infer<typeof ExportResult>;
