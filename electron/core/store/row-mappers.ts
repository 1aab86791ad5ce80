/** Database rows (snake_case, as stored) to the records core works with. */
import type { Box } from '../../shared/geometry/box.js';
import type {
  DetectionOrigin,
  DetectionRow,
  MediaKind,
  MediaRecord,
  MediaStatus,
  ResultRow,
  ReviewState,
} from './store-types.js';
import type { RawDetection } from './row-types.js';

export interface MediaDbRow {
  id: number;
  folder_id: number;
  path: string;
  kind: MediaKind;
  size: number;
  mtime_ms: number;
  content_hash: string | null;
  width: number | null;
  height: number | null;
  orientation: number;
  duration_ms: number | null;
  fps: number | null;
  status: MediaStatus;
  error_code: string | null;
  error_message: string | null;
  file_id?: string | null;
}

export const toMedia = (r: MediaDbRow): MediaRecord => ({
  id: r.id,
  folderId: r.folder_id,
  path: r.path,
  kind: r.kind,
  size: r.size,
  mtimeMs: r.mtime_ms,
  contentHash: r.content_hash,
  width: r.width,
  height: r.height,
  orientation: r.orientation,
  durationMs: r.duration_ms,
  fps: r.fps,
  status: r.status,
  errorCode: r.error_code,
  errorMessage: r.error_message,
  fileId: r.file_id ?? null,
});

export interface ResultDbRow {
  id: number;
  content_hash: string;
  solution: string;
  service_url: string;
  analysed_width: number;
  analysed_height: number;
  model: string | null;
  box_count: number;
  created_at: number;
}

export const toResult = (r: ResultDbRow): ResultRow => ({
  id: r.id,
  contentHash: r.content_hash,
  solution: r.solution,
  serviceUrl: r.service_url,
  analysedWidth: r.analysed_width,
  analysedHeight: r.analysed_height,
  model: r.model,
  boxCount: r.box_count,
  createdAt: r.created_at,
});

/** A detection as stored: its box's columns are the one box's (shared/geometry/box.ts). */
export interface DetectionDbRow extends Box {
  id: number;
  result_id: number;
  frame_index: number;
  time_ms: number | null;
  label: string;
  class_id: number | null;
  score: number | null;
  origin: DetectionOrigin;
  review: ReviewState;
}

export const toDetection = (r: DetectionDbRow): DetectionRow => ({
  id: r.id,
  resultId: r.result_id,
  frameIndex: r.frame_index,
  timeMs: r.time_ms,
  label: r.label,
  classId: r.class_id,
  score: r.score,
  bbox: { x: r.x, y: r.y, w: r.w, h: r.h },
  origin: r.origin,
  review: r.review,
});

/** A model box's columns, in the order `RawDetection` reads them. */
export const RAW_DETECTION_COLUMNS = `id, result_id, frame_index, time_ms, label, class_id, score,
  x, y, w, h, origin, review`;

export type { RawDetection } from './row-types.js';

// Raw arrays skip an intermediate object per box: a million boxes is a million fewer objects.
export const fromRaw = (d: RawDetection): DetectionRow => ({
  id: d[0],
  resultId: d[1],
  frameIndex: d[2],
  timeMs: d[3],
  label: d[4],
  classId: d[5],
  score: d[6],
  bbox: { x: d[7], y: d[8], w: d[9], h: d[10] },
  origin: d[11],
  review: d[12],
});

/** A row the statement promised: a missing one is a bug in the store, not a user error. */
export function must<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw new Error(`store: ${what} not found right after writing it`);
  return row;
}
