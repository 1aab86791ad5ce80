/**
 * Streaming export of the corrected set. One cursor walks media in path order with their results,
 * and each item's boxes are read by index in frame order (no sort anywhere), so memory holds one
 * item at a time whatever the size of the library. An item nobody corrected is filtered in SQL as
 * before; one with corrections (or a clip, whose tracks need every box) is handed with its rows
 * to `boxesOf` (the corrected set's export boxes, core/review). The detections' `review` column
 * mirrors the corrected state (mirror-writes.ts).
 */
import { openDatabase, type Db } from '../../node-lib/sqlite.js';
import {
  CONTENT_MERGE_CORRECTIONS_SQL,
  resultCorrections,
  toMergeCorrection,
  type RawMergeCorrection,
} from './correction-rows.js';
import type { ExportBoxesFn } from './library-database-types.js';
import { fromRaw, RAW_DETECTION_COLUMNS, type RawDetection } from './row-mappers.js';
import type {
  ExportItem,
  ExportQuery,
  MediaKind,
  MediaRecord,
  MediaStatus,
  ResultRow,
} from './store-types.js';

// One row per item, walking the path index; the results probe is by its unique key, and the
// corrections probe by their index (most items have none: they skip the merge). Read as arrays
// and mapped by position (`itemOf`): named columns cost an object per item, then one more to pick
// the media and result apart. The file's identity (`file_id`) is for serving; exports leave it out.
const ITEMS_SQL = `
  SELECT m.id, m.folder_id, m.path, m.kind, m.size, m.mtime_ms, m.content_hash, m.width, m.height,
    m.orientation, m.duration_ms, m.fps, m.status, m.error_code, m.error_message,
    r.id, r.content_hash, r.solution, r.service_url, r.analysed_width, r.analysed_height, r.model,
    r.box_count, r.created_at,
    EXISTS (${resultCorrections()}) AS corrected
  FROM media m
  JOIN results r ON r.content_hash = m.content_hash
    AND (@solution IS NULL OR r.solution = @solution)
  WHERE m.status = 'present' AND (@kind IS NULL OR m.kind = @kind)
  ORDER BY m.path, r.solution`;

type ItemRow = [
  ...[number, number, string, MediaKind, number, number, string | null, number | null],
  ...[number | null, number, number | null, number | null, MediaStatus, string | null],
  ...[string | null, number, string, string, string, number, number, string | null, number],
  ...[number, number],
];

/** An `ITEMS_SQL` row, by position, as the media, its result, and whether a person corrected it. */
const itemOf = (r: ItemRow): { media: MediaRecord; result: ResultRow; corrected: boolean } => ({
  media: {
    id: r[0],
    folderId: r[1],
    path: r[2],
    kind: r[3],
    size: r[4],
    mtimeMs: r[5],
    contentHash: r[6],
    width: r[7],
    height: r[8],
    orientation: r[9],
    durationMs: r[10],
    fps: r[11],
    status: r[12],
    errorCode: r[13],
    errorMessage: r[14],
    fileId: null,
  },
  result: {
    id: r[15],
    contentHash: r[16],
    solution: r[17],
    serviceUrl: r[18],
    analysedWidth: r[19],
    analysedHeight: r[20],
    model: r[21],
    boxCount: r[22],
    createdAt: r[23],
  },
  corrected: r[24] === 1,
});

// The boxes of one item, in frame order straight off the index. Fetched per item rather than
// joined: a joined row would repeat the 24 media and result columns for every box (6× slower).
const DETECTIONS_SQL = `
  SELECT id, result_id, frame_index, time_ms, label, class_id, score, x, y, w, h, origin, review
  FROM detections d
  WHERE d.result_id = @resultId
    AND (@includeRejected OR d.rejected = 0)
    AND (NOT @onlyAccepted OR d.review = 'accepted')
    AND (@minScore IS NULL OR d.score IS NULL OR d.score >= @minScore)
    AND (@classes IS NULL OR d.label IN (SELECT value FROM json_each(@classes)))
  ORDER BY d.frame_index, d.id`;

// The same boxes when a score filter leaves rejected ones out (the usual export): two ranges of
// the detections_shown index (migration 18), scored boxes from the minimum up and boxes without a
// score (which pass every score filter), instead of every row of the item — at the objects
// model's 0.05 floor an image keeps ~60 boxes and shows ~11. SQLite does not split the OR over
// the index by itself. The ranges come in score order: `byFrame` puts the few rows back in order.
const SHOWN_FILTERS = `d.result_id = @resultId AND d.rejected = 0
    AND (NOT @onlyAccepted OR d.review = 'accepted')
    AND (@classes IS NULL OR d.label IN (SELECT value FROM json_each(@classes)))`;
const SHOWN_DETECTIONS_SQL = `
  SELECT ${RAW_DETECTION_COLUMNS} FROM detections d
  WHERE ${SHOWN_FILTERS} AND d.score >= @minScore
  UNION ALL
  SELECT ${RAW_DETECTION_COLUMNS} FROM detections d
  WHERE ${SHOWN_FILTERS} AND d.score IS NULL`;

/** Frame order, then id: what DETECTIONS_SQL's ORDER BY gives. */
const byFrame = (a: RawDetection, b: RawDetection) => a[2] - b[2] || a[0] - b[0];

// Every box of an item, for the merge (which filters after it: a relabel or a drawn box changes
// what the filters select).
const ALL_DETECTIONS_SQL = `
  SELECT id, result_id, frame_index, time_ms, label, class_id, score, x, y, w, h, origin, review
  FROM detections d WHERE d.result_id = @resultId ORDER BY d.frame_index, d.id`;

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
  boxesOf: ExportBoxesFn,
): Generator<ExportItem, void, undefined> {
  const db = openDatabase(file);
  readers.add(db);
  try {
    db.pragma('query_only = ON');
    const params = queryParams(query);
    const items = db
      .prepare<[{ solution: string | null; kind: string | null }], ItemRow>(ITEMS_SQL)
      .raw();
    const boxes = db
      .prepare<[ReturnType<typeof queryParams> & { resultId: number }], RawDetection>(
        DETECTIONS_SQL,
      )
      .raw();
    const shownBoxes = db
      .prepare<[ReturnType<typeof queryParams> & { resultId: number }], RawDetection>(
        SHOWN_DETECTIONS_SQL,
      )
      .raw();
    const shownOnly = params.minScore !== null && !params.includeRejected;
    const allBoxes = db.prepare<[{ resultId: number }], RawDetection>(ALL_DETECTIONS_SQL).raw();
    const corrections = db
      .prepare<[string, string], RawMergeCorrection>(CONTENT_MERGE_CORRECTIONS_SQL)
      .raw();
    // One parameters object for every item's boxes, its result id changed each time.
    const boxParams = { ...params, resultId: 0 };
    // Both statements read inside one transaction, so items and boxes come from one snapshot.
    db.exec('BEGIN');
    for (const row of items.iterate({ solution: params.solution, kind: params.kind })) {
      const { media, result, corrected } = itemOf(row);
      boxParams.resultId = result.id;
      const detections =
        corrected || media.kind === 'video'
          ? boxesOf(
              allBoxes.all({ resultId: result.id }).map(fromRaw),
              corrected
                ? corrections.all(result.contentHash, result.solution).map(toMergeCorrection)
                : [],
              query,
              media.kind,
            )
          : shownOnly
            ? shownBoxes.all(boxParams).sort(byFrame).map(fromRaw)
            : boxes.all(boxParams).map(fromRaw);
      if (query.skipEmpty && detections.length === 0) continue;
      yield { media, result, detections };
    }
  } finally {
    readers.delete(db);
    db.close();
  }
}

/** The export queries, for checking their plans never sort the whole library. */
export const exportSql = {
  items: ITEMS_SQL,
  detections: DETECTIONS_SQL,
  shownDetections: SHOWN_DETECTIONS_SQL,
  allDetections: ALL_DETECTIONS_SQL,
};
