/**
 * Streaming export. One query walks media in path order with their results and detections
 * already in frame order (all by index, no sort), and items are grouped as rows arrive, so memory
 * holds one item at a time whatever the size of the library.
 */
import { openDatabase, type Db } from '../../node-lib/sqlite.js';
import {
  toDetection,
  toMedia,
  toResult,
  type DetectionDbRow,
  type MediaDbRow,
  type ResultDbRow,
} from './row-mappers.js';
import type { DetectionRow, ExportItem, ExportQuery } from './store-types.js';

const MEDIA_COLS = [
  'id',
  'folder_id',
  'path',
  'kind',
  'size',
  'mtime_ms',
  'content_hash',
  'width',
  'height',
  'orientation',
  'duration_ms',
  'fps',
  'status',
  'error_code',
  'error_message',
] as const;
const RESULT_COLS = [
  'id',
  'content_hash',
  'solution',
  'service_url',
  'analysed_width',
  'analysed_height',
  'model',
  'box_count',
  'created_at',
] as const;
const DETECTION_COLS = [
  'id',
  'result_id',
  'frame_index',
  'time_ms',
  'label',
  'class_id',
  'score',
  'x',
  'y',
  'w',
  'h',
  'px',
  'py',
  'pw',
  'ph',
  'origin',
  'review',
] as const;

const select = (alias: string, cols: readonly string[]) =>
  cols.map((c) => `${alias}.${c} AS ${alias}_${c}`).join(', ');

// Detection filters sit in the LEFT JOIN's ON clause: an item whose boxes are all filtered out is
// still a labelled image (a negative), unless the caller asks to skip it.
const EXPORT_SQL = `
  SELECT ${select('m', MEDIA_COLS)}, ${select('r', RESULT_COLS)}, ${select('d', DETECTION_COLS)}
  FROM media m
  JOIN results r ON r.content_hash = m.content_hash
    AND (@solution IS NULL OR r.solution = @solution)
  LEFT JOIN detections d ON d.result_id = r.id
    AND (@includeRejected OR d.review != 'rejected')
    AND (NOT @onlyAccepted OR d.review = 'accepted')
    AND (@minScore IS NULL OR d.score >= @minScore)
    AND (@classes IS NULL OR d.label IN (SELECT value FROM json_each(@classes)))
  WHERE m.status = 'present' AND (@kind IS NULL OR m.kind = @kind)
  ORDER BY m.path, r.solution, d.frame_index, d.id`;

type Row = Record<string, unknown>;

/** Picks the `alias_` columns of a joined row back into a table row. */
function pick<T>(row: Row, alias: string, cols: readonly string[]): T {
  const out: Row = {};
  for (const c of cols) out[c] = row[`${alias}_${c}`];
  return out as T;
}

export function queryParams(q: ExportQuery) {
  return {
    solution: q.solution ?? null,
    includeRejected: q.includeRejected ? 1 : 0,
    onlyAccepted: q.onlyAccepted ? 1 : 0,
    minScore: q.minScore ?? null,
    classes: q.classes ? JSON.stringify(q.classes) : null,
    kind: q.kind ?? null,
  };
}

/**
 * Iterates on its own read-only connection: an open cursor on the main connection would make
 * every write fail ("connection is busy") while an exporter awaits its disk between items, and
 * WAL gives the reader a consistent snapshot of the library as it was when the export began.
 */
export function* exportItems(
  file: string,
  query: ExportQuery,
  readers: Set<Db>,
): Generator<ExportItem, void, undefined> {
  const db = openDatabase(file);
  readers.add(db);
  try {
    db.pragma('query_only = ON');
    const stmt = db.prepare<[ReturnType<typeof queryParams>], Row>(EXPORT_SQL);
    let current: ExportItem | undefined;
    let key = '';
    for (const row of stmt.iterate(queryParams(query))) {
      const rowKey = `${String(row.m_id)}:${String(row.r_id)}`;
      if (rowKey !== key) {
        if (current && !(query.skipEmpty && current.detections.length === 0)) yield current;
        key = rowKey;
        current = {
          media: toMedia(pick<MediaDbRow>(row, 'm', MEDIA_COLS)),
          result: toResult(pick<ResultDbRow>(row, 'r', RESULT_COLS)),
          detections: [] as DetectionRow[],
        };
      }
      if (row.d_id !== null && current) {
        current.detections.push(toDetection(pick<DetectionDbRow>(row, 'd', DETECTION_COLS)));
      }
    }
    if (current && !(query.skipEmpty && current.detections.length === 0)) yield current;
  } finally {
    readers.delete(db);
    db.close();
  }
}

/** The export query, for checking its plan never sorts the whole library. */
export const exportSql = EXPORT_SQL;
