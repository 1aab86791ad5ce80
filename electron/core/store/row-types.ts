/** The library's rows as the rest of core reads and writes them (see store-types.ts). */
import type { Box } from '../../shared/geometry/box.js';

export type MediaKind = 'image' | 'video';
export type MediaStatus = 'present' | 'missing' | 'error';

export interface FolderRow {
  id: number;
  path: string;
  addedAt: number;
  lastScanAt: number | null;
}

/** What the library knows of one file. Dimensions are the file's own (before EXIF orientation). */
export interface MediaRecord {
  id: number;
  folderId: number;
  path: string;
  kind: MediaKind;
  size: number;
  mtimeMs: number;
  /** SHA-256 hex of the bytes; null until hashed. */
  contentHash: string | null;
  width: number | null;
  height: number | null;
  /** EXIF orientation 1–8 (1 when none). */
  orientation: number;
  durationMs: number | null;
  fps: number | null;
  status: MediaStatus;
  errorCode: string | null;
  errorMessage: string | null;
  /** `dev:ino` of the file the path led to when scanned (null before migration 4 or unknown). */
  fileId?: string | null;
}

export type MediaUpsert = Omit<MediaRecord, 'id' | 'status' | 'errorCode' | 'errorMessage'> & {
  status?: MediaStatus;
  errorCode?: string | null;
  errorMessage?: string | null;
};

export type SnapshotEntry = Pick<MediaRecord, 'id' | 'size' | 'mtimeMs' | 'contentHash' | 'fileId'>;

export type DetectionOrigin = 'model' | 'edited' | 'added';
export type ReviewState = 'pending' | 'accepted' | 'rejected';

/** The one box (electron/shared/geometry/box.ts), by the store's name for it. */
export type BoxXYWH = Box;

export interface DetectionInput {
  /** 0 for an image; the sampled frame index for a clip. */
  frameIndex: number;
  timeMs: number | null;
  label: string;
  classId: number | null;
  score: number | null;
  /** Normalised 0–1 of the analysed (EXIF-oriented) image. */
  bbox: BoxXYWH;
  origin?: DetectionOrigin;
  review?: ReviewState;
}

export interface DetectionRow extends Required<DetectionInput> {
  id: number;
  resultId: number;
  /** A keyframe between analysed samples: `frameIndex` is then its clip frame. Absent: a sample. */
  keyframe?: true;
  /** Set on a box in an export when an auto-accept's rule accepted it (see merge-corrections). */
  rule?: string | null;
  /** A crowd region (COCO's `iscrowd`, from an import): no object to find, drawn apart. */
  crowd?: boolean;
  /**
   * The imported COCO annotation's JSON, for the fields LabelDesk does not edit: as its file gave
   * it, or (earlier imports) those fields alone (see readKeptAnnotation in coco-kept.ts).
   */
  coco?: string | null;
}

/** One analysis of one content by one solution: shared by every file with that content (dedupe). */
export interface ResultRow {
  id: number;
  contentHash: string;
  solution: string;
  serviceUrl: string;
  analysedWidth: number;
  analysedHeight: number;
  model: string | null;
  boxCount: number;
  createdAt: number;
}

export interface ResultInput {
  contentHash: string;
  solution: string;
  serviceUrl: string;
  analysedWidth: number;
  analysedHeight: number;
  model: string | null;
  detections: readonly DetectionInput[];
}

/**
 * A person's correction of one box, stored beside the model's boxes (never inside them), keyed by
 * content hash + solution so that duplicate files share it and re-analysis keeps it. How it finds
 * its model box again after re-analysis is decided in `electron/core/review/merge-corrections.ts`.
 */
export interface CorrectionRow {
  id: number;
  contentHash: string;
  solution: string;
  /** A sample's index, or with `keyframe` the clip frame (as the column holds it). */
  frameIndex: number;
  /** A keyframe between analysed samples (migration 19's column). Absent: a sample. */
  keyframe?: true;
  timeMs: number | null;
  /** The model box it corrects, as the model gave it; null for a box a person drew. */
  anchor: { label: string; score: number | null; bbox: BoxXYWH } | null;
  /** The person's label; null: the model's. */
  label: string | null;
  /** The person's box (normalised like detections); null: the model's. */
  bbox: BoxXYWH | null;
  review: ReviewState;
  deleted: boolean;
  /** The track a person put the box in (merge, split); null: the tracker decides. */
  track: number | null;
  updatedAt: number;
  /** Set while an auto-accept's rule owns the box ("person ≥ 0.42 at 95 %"); null: a person's. */
  rule?: string | null;
  /** A crowd region (COCO's `iscrowd`): no object to find; left out: as stored (written: false). */
  crowd?: boolean;
  /**
   * An imported COCO annotation's JSON, for the fields LabelDesk does not edit (see
   * readKeptAnnotation); left out on a write: kept as stored.
   */
  coco?: string | null;
  /**
   * The box is the person's own, not the model's detection corrected (an imported label put on a
   * model box): it has no score. Left out: as stored (written: false).
   */
  personMade?: boolean;
}

/** `track` may be left out: no person's track. A person's (or an import's) write never sets a
 * rule, and it ends one (see migration 8). */
export type CorrectionInput = Omit<CorrectionRow, 'id' | 'updatedAt' | 'track' | 'rule'> & {
  id?: number;
  track?: number | null;
  /**
   * Not a person's write: the box only moves onto its detection read again (a held answer read
   * with the confirmed box origin), so whoever owns it, an auto-accept rule or a person, keeps it.
   */
  ownerKept?: boolean;
};

/** What the merge reads of a correction (an export reads only these columns, see export-items.ts). */
export type MergeCorrection = Omit<
  CorrectionRow,
  'contentHash' | 'solution' | 'updatedAt' | 'track'
> & {
  track?: number | null;
};

/** A model box as the store reads it raw: RAW_DETECTION_COLUMNS (row-mappers.ts), in order. */
export type RawDetection = [
  number,
  number,
  number,
  number | null,
  string,
  number | null,
  number,
  number,
  number,
  number,
  number,
  DetectionOrigin,
  ReviewState,
];
