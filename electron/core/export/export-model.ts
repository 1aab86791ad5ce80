/** Shared shapes of the export writers, and the few facts every format agrees on. */
import { StringTable } from '../../shared/string-table.js';
import type { DetectionRow, ExportItem, MediaKind, MediaRecord } from '../store/store-types.js';
import type { Size } from './box-geometry.js';

export type ExportFormat = 'coco' | 'coco-results' | 'yolo' | 'voc' | 'csv' | 'mot' | 'events';

export interface ExportProgress {
  /** Media files exported so far (images, or clips for MOT). */
  files: number;
  boxes: number;
  /** Items the format cannot carry (clips in COCO/YOLO/VOC, images in MOT) or without a size. */
  skipped: number;
}

export interface ExportSummary extends ExportProgress {
  /** Absolute paths of every file the export created, in the order they were produced. */
  written: string[];
}

/**
 * A clip's boxes made on demand, in clip-frame order (an interpolated clip can have millions):
 * each pass over it computes them again, so a consumer may read it twice but never holds it.
 */
export interface FrameOrderedRows extends Iterable<DetectionRow> {
  readonly frameOrdered: true;
  /** The largest track id among the rows, when known without a pass over them. */
  readonly maxTrackId?: number;
}

/** An item's boxes: the store's list (in its order), or a clip's frame-ordered stream. */
export type ItemRows = readonly DetectionRow[] | FrameOrderedRows;

export function isStream(rows: ItemRows): rows is FrameOrderedRows {
  return (rows as Partial<FrameOrderedRows>).frameOrdered === true;
}

/** What the writers take: an export item whose boxes may be streamed. */
export type WritableItem = Omit<ExportItem, 'detections'> & { detections: ItemRows };

/** One media file with its displayed (EXIF-oriented) size resolved, ready for a writer. */
export interface PreparedItem {
  media: MediaRecord;
  size: Size;
  detections: ItemRows;
  /** The result the boxes come from (COCO results read the model's own boxes of it). */
  resultId?: number;
}

export interface FormatWriter {
  accepts(kind: MediaKind): boolean;
  /** Writes one item and returns the number of boxes written (degenerate boxes are dropped). */
  add(item: PreparedItem): Promise<number>;
  /** Completes the output; returns the names written inside a folder target ([] for one file). */
  finish(): Promise<string[]>;
  /** Releases handles after a failure; the caller deletes the temp target. */
  abort(): Promise<void>;
}

/** Class ids: the solution's class list first (so ids match the catalog), then unknown labels as seen. */
export class ClassIndex extends StringTable {
  constructor(classes: readonly string[] = []) {
    super();
    for (const c of classes) this.indexOf(c);
  }

  get names(): readonly string[] {
    return this.strings;
  }

  idOf(label: string): number {
    return this.indexOf(label);
  }
}

/**
 * The 0-based frame of the clip a detection belongs to. The service's frame index counts sampled
 * frames (e.g. 2 per second), not the clip's own frames, so the time and the clip's fps give the
 * real frame; the sample index is the fallback when either is unknown.
 */
export function clipFrame(
  detection: Pick<DetectionRow, 'frameIndex' | 'timeMs'>,
  fps: number | null,
): number {
  if (detection.timeMs !== null && fps !== null && fps > 0) {
    return Math.max(0, Math.round((detection.timeMs * fps) / 1000));
  }
  return detection.frameIndex;
}

/** A track id when the detection source provides one (the store row may gain it later), else -1. */
export function trackIdOf(detection: DetectionRow): number {
  const t = (detection as DetectionRow & { trackId?: unknown }).trackId;
  return typeof t === 'number' && Number.isInteger(t) && t >= 0 ? t : -1;
}

/** The largest track id among an item's boxes (0: none), without a pass when a stream knows it. */
export function largestTrackId(rows: ItemRows): number {
  if (isStream(rows) && rows.maxTrackId !== undefined) return rows.maxTrackId;
  let max = 0;
  for (const row of rows) max = Math.max(max, trackIdOf(row));
  return max;
}

/**
 * The boxes in clip-frame order, those of one frame in their given order: a stream is already
 * so; a list is sorted (stable), as the store orders keyframes between samples first.
 */
export function inFrameOrder(rows: ItemRows, fps: number | null): Iterable<DetectionRow> {
  if (isStream(rows)) return rows;
  return rows
    .map((row) => ({ row, frame: clipFrame(row, fps) }))
    .sort((a, b) => a.frame - b.frame)
    .map((r) => r.row);
}
