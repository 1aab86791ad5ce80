/** Database rows (snake_case, as stored) to the records core works with. */
import type {
  DetectionOrigin,
  DetectionRow,
  MediaKind,
  MediaRecord,
  MediaStatus,
  ResultRow,
  ReviewState,
} from './store-types.js';

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

export interface DetectionDbRow {
  id: number;
  result_id: number;
  frame_index: number;
  time_ms: number | null;
  label: string;
  class_id: number | null;
  score: number;
  x: number;
  y: number;
  w: number;
  h: number;
  px: number;
  py: number;
  pw: number;
  ph: number;
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
  bboxPx: { x: r.px, y: r.py, w: r.pw, h: r.ph },
  origin: r.origin,
  review: r.review,
});

/** A row the statement promised: a missing one is a bug in the store, not a user error. */
export function must<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw new Error(`store: ${what} not found right after writing it`);
  return row;
}
