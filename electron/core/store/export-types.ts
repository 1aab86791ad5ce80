/** What an export reads from the library: the items of a scope with their corrected boxes. */
import type { DetectionRow, MediaKind, MediaRecord, ResultRow } from './row-types.js';

export interface ExportItem {
  media: MediaRecord;
  result: ResultRow;
  /**
   * The corrected set (model boxes with a person's corrections merged in, deleted ones left out),
   * in frame order; clips' boxes carry a `trackId` (see `electron/core/tracking/assign-tracks.ts`).
   */
  detections: DetectionRow[];
}

export interface ExportQuery {
  solution?: string;
  /** Only accepted boxes: a person's, and those an auto-accept rule accepted unless `byPerson`. */
  onlyAccepted?: boolean;
  /** With `onlyAccepted`: leave out boxes accepted by rule. */
  byPerson?: boolean;
  minScore?: number;
  classes?: readonly string[];
  kind?: MediaKind;
  /** Also export boxes a reviewer rejected (default: they are left out). */
  includeRejected?: boolean;
  /** Leave out items with no box left after filtering (default: kept, as labelled negatives). */
  skipEmpty?: boolean;
}
