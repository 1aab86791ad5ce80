/** The Library screen: a filtered, sorted, paged view of every file and its boxes. */
import { Id, MediaKind } from './common-schemas.js';
import { z } from './zod.js';
import { BoxSchema } from '../geometry/box.js';

export const ItemStatus = z.enum(['new', 'labelled', 'failed', 'uncertain', 'unreadable']);
export type ItemStatus = z.infer<typeof ItemStatus>;
export const ReviewFilter = z.enum(['unreviewed', 'reviewed']);

/** A score threshold, 0–1. */
export const MinScore = z.number().min(0).max(1);
/** The library's minimum score: what is shown and exported unless a person asks otherwise. */
export const MinScoreSetting = z.object({ minScore: MinScore });
export type MinScoreSetting = z.infer<typeof MinScoreSetting>;

export const LibraryFilter = z.object({
  solution: z.string().min(1).max(200),
  folderIds: z.array(Id).max(10_000).optional(),
  kind: MediaKind.optional(),
  status: ItemStatus.optional(),
  label: z.string().max(200).optional(),
  minScore: z.number().min(0).max(1).optional(),
  review: ReviewFilter.optional(),
  /** Only files where model boxes of different classes sit on one object (IoU ≥ 0.7). */
  conflicts: z.boolean().optional(),
  search: z.string().max(500).optional(),
});
export type LibraryFilter = z.infer<typeof LibraryFilter>;

export const LibrarySort = z.enum(['path', 'name', 'modified', 'size', 'boxes', 'priority']);
export type LibrarySort = z.infer<typeof LibrarySort>;

export const LibraryPageInput = z.object({
  filter: LibraryFilter,
  sort: LibrarySort.default('path'),
  descending: z.boolean().default(false),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(1000),
});

export const LibraryItem = z.object({
  id: Id,
  path: z.string(),
  name: z.string(),
  kind: MediaKind,
  size: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  durationMs: z.number().nullable(),
  status: ItemStatus,
  /** Boxes after the filter's minimum score and label, null when not labelled. */
  boxes: z.number().nullable(),
  pendingReview: z.number(),
  /** Boxes accepted by an auto-accept rule rather than by a person. */
  byRule: z.number(),
  /** Marked reviewed (by a person, or an import) for the solution. */
  reviewed: z.boolean(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
});
export type LibraryItem = z.infer<typeof LibraryItem>;

export const LibraryPage = z.object({
  /** Items matching the filter; the grid sizes itself to it. */
  total: z.number(),
  offset: z.number(),
  items: z.array(LibraryItem),
});
export type LibraryPage = z.infer<typeof LibraryPage>;

export const ClassCounts = z.array(z.object({ label: z.string(), count: z.number() }));
export type ClassCounts = z.infer<typeof ClassCounts>;

export const Box = z.object({
  /** The model detection's id; for a box a person drew, its correction's id (see `key`). */
  id: Id,
  /** Unique within the item (`d<detection>` or `c<correction>`); review.boxes has both ids. */
  key: z.string().optional(),
  /** A sample's index; with `keyframe`, a clip frame between samples. */
  frameIndex: z.number(),
  keyframe: z.literal(true).optional(),
  timeMs: z.number().nullable(),
  label: z.string(),
  score: z.number().nullable(),
  /** Normalised 0–1 of the analysed (EXIF-oriented) picture: overlays draw from this. */
  bbox: BoxSchema,
  origin: z.enum(['model', 'edited', 'added']),
  review: z.enum(['pending', 'accepted', 'rejected']),
});
export type Box = z.infer<typeof Box>;

export const ItemInput = z.object({
  id: Id,
  solution: z.string().min(1).max(200),
  /** False: the item and its analysis only (the review screens read boxes by review.boxes). */
  withBoxes: z.boolean().default(true),
});
export const ItemDetail = z.object({
  item: LibraryItem,
  analysedWidth: z.number().nullable(),
  analysedHeight: z.number().nullable(),
  model: z.string().nullable(),
  boxes: z.array(Box),
});
export type ItemDetail = z.infer<typeof ItemDetail>;

export const ItemIdsInput = z.object({
  filter: LibraryFilter,
  sort: LibrarySort.default('path'),
  descending: z.boolean().default(false),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(200_000),
});
export const ItemIds = z.array(Id);
