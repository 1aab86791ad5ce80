import type { Db } from '../../node-lib/sqlite.js';
import {
  MEDIA_INSERT_NEW_SQL,
  MEDIA_ROW_SQL,
  MEDIA_UPSERT_SQL,
  mediaFromValues,
  mediaUpsertValues,
  type MediaUpsertValues,
  writeMediaRows,
} from './media-upsert-sql.js';
import { must, toMedia, type MediaDbRow } from './row-mappers.js';
import type {
  LibraryStore,
  MediaKind,
  MediaPageRow,
  MediaReadResult,
  MediaUpsert,
} from './store-types.js';

type Media = LibraryStore['media'];
type Snapshot = ReturnType<Media['snapshot']>;

/** A row of a folder's snapshot as SQLite gives it. */
interface SnapshotDbRow {
  id: number;
  path: string;
  size: number;
  mtime_ms: number;
  content_hash: string | null;
  file_id: string | null;
}

export class MediaRepo implements Media {
  private readonly upsertStmt;
  private readonly insertNewStmt;
  private readonly writeAll;
  private readonly byPathStmt;
  private readonly byIdStmt;
  private readonly snapshotStmt;
  private readonly snapshotPageStmt;
  private readonly unhashedStmt;
  private readonly unprobedStmt;
  private readonly idsStmt;
  private readonly missingStmt;
  private readonly errorStmt;
  private readonly listStmt;
  private readonly pageStmt;
  private readonly countStmt;
  private readonly upsertAll;
  private readonly hashStmt;
  private readonly hashProbeStmt;
  private readonly setAll;
  private readonly markAllMissing;

  constructor(db: Db) {
    // A file seen again is present again: status and error follow the caller, defaulting to clean.
    // Bound by position from one column list (media-upsert-sql.ts): ~0.25 s less per 100k rows
    // than named parameters, which look each value up by name.
    this.upsertStmt = db.prepare<MediaUpsertValues, { id: number }>(
      `${MEDIA_UPSERT_SQL} RETURNING id`,
    );
    this.insertNewStmt = db.prepare<MediaUpsertValues>(MEDIA_INSERT_NEW_SQL);
    // Narrow updates (~0.6 s per 100k against ~5 s for full-row upserts), guarded by the version read.
    this.hashStmt = db.prepare<[string, number, number, number]>(
      'UPDATE media SET content_hash = ? WHERE id = ? AND size = ? AND mtime_ms = ?',
    );
    this.hashProbeStmt = db.prepare<
      [string, number, number, number, number | null, number | null, number, number, number]
    >(`UPDATE media SET content_hash = ?, width = ?, height = ?, orientation = ?, duration_ms = ?,
         fps = ? WHERE id = ? AND size = ? AND mtime_ms = ?`);
    this.setAll = db.transaction((rows: readonly MediaReadResult[]) => {
      let changed = 0;
      for (const r of rows) {
        const p = r.probe;
        changed += (
          p
            ? this.hashProbeStmt.run(
                r.contentHash,
                p.width,
                p.height,
                p.orientation,
                p.durationMs,
                p.fps,
                r.id,
                r.size,
                r.mtimeMs,
              )
            : this.hashStmt.run(r.contentHash, r.id, r.size, r.mtimeMs)
        ).changes;
      }
      return changed;
    });
    this.byPathStmt = db.prepare<[string], MediaDbRow>('SELECT * FROM media WHERE path = ?');
    this.byIdStmt = db.prepare<[number], MediaDbRow>('SELECT * FROM media WHERE id = ?');
    // Missing files are left out so that a file which comes back is seen as new and re-read.
    this.snapshotStmt = db.prepare<
      [number],
      SnapshotDbRow
    >(`SELECT id, path, size, mtime_ms, content_hash, file_id FROM media
       WHERE folder_id = ? AND status != 'missing'`);
    // Along media_by_folder (folder_id, path): each page starts where the last one ended.
    this.snapshotPageStmt = db.prepare<
      [number, string, number],
      SnapshotDbRow & { present: 0 | 1 }
    >(`SELECT id, path, size, mtime_ms, content_hash, file_id, status = 'present' AS present FROM media
       WHERE folder_id = ? AND path > ? AND status != 'missing' ORDER BY path LIMIT ?`);
    // content_hash IS NULL is a range of media_by_hash: no row is read when there is none.
    this.unhashedStmt = db
      .prepare<[], number>(
        "SELECT 1 FROM media WHERE content_hash IS NULL AND status = 'present' LIMIT 1",
      )
      .pluck();
    this.missingStmt = db.prepare<[number]>("UPDATE media SET status = 'missing' WHERE id = ?");
    this.errorStmt = db.prepare<[string, string, number]>(
      "UPDATE media SET status = 'error', error_code = ?, error_message = ? WHERE id = ?",
    );
    // Optional filters are bound as NULL; paths are absolute, so '' is "from the start".
    this.listStmt = db
      .prepare<
        {
          folders: string | null;
          kind: MediaKind | null;
          limit: number;
          after: string;
          errors: number;
          needing: 'hash' | 'probe' | null;
        },
        unknown[]
      >(
        `SELECT ${MEDIA_ROW_SQL} FROM media
       WHERE (status = 'present' OR (@errors = 1 AND status = 'error')) AND path > @after
         AND (@folders IS NULL OR folder_id IN (SELECT value FROM json_each(@folders)))
         AND (@kind IS NULL OR kind = @kind)
         AND (@needing IS NULL OR (@needing = 'hash' AND content_hash IS NULL)
           OR (@needing = 'probe' AND width IS NULL))
       ORDER BY path LIMIT @limit`,
      )
      .raw();
    // Along media_unprobed (path, where width IS NULL): a page reads only rows to probe.
    this.unprobedStmt = db
      .prepare<
        { folders: string | null; kind: MediaKind | null; limit: number; after: string },
        unknown[]
      >(
        `SELECT ${MEDIA_ROW_SQL} FROM media
       WHERE width IS NULL AND status = 'present' AND path > @after
         AND (@folders IS NULL OR folder_id IN (SELECT value FROM json_each(@folders)))
         AND (@kind IS NULL OR kind = @kind)
       ORDER BY path LIMIT @limit`,
      )
      .raw();
    this.idsStmt = db
      .prepare<{ folders: string | null; errors: number }, number>(
        `SELECT id FROM media
         WHERE (status = 'present' OR (@errors = 1 AND status = 'error'))
           AND (@folders IS NULL OR folder_id IN (SELECT value FROM json_each(@folders)))
         ORDER BY path`,
      )
      .pluck();
    // Walks the path index and probes results by its unique key: one indexed join per page.
    this.pageStmt = db.prepare<
      { solution: string; limit: number; after: string },
      MediaDbRow & { box_count: number | null }
    >(`SELECT m.*, r.box_count FROM media m
       LEFT JOIN results r ON r.content_hash = m.content_hash AND r.solution = @solution
       WHERE m.path > @after AND m.status != 'missing'
       ORDER BY m.path LIMIT @limit`);
    this.countStmt = db.prepare<[], { n: number }>(
      "SELECT count(*) AS n FROM media WHERE status != 'missing'",
    );
    this.upsertAll = db.transaction((rows: readonly MediaUpsert[]) =>
      rows.map((r) => must(this.upsertStmt.get(...mediaUpsertValues(r)), `media ${r.path}`).id),
    );
    this.writeAll = db.transaction((rows: readonly MediaUpsert[]) =>
      writeMediaRows(rows, this.insertNewStmt, this.upsertStmt),
    );
    this.markAllMissing = db.transaction((ids: readonly number[]) => {
      for (const id of ids) this.missingStmt.run(id);
    });
  }

  upsertMany(rows: readonly MediaUpsert[]): number[] {
    return this.upsertAll(rows);
  }

  writeMany(rows: readonly MediaUpsert[]): number[] {
    return this.writeAll(rows);
  }

  setHashAndProbe(rows: readonly MediaReadResult[]): number {
    return rows.length ? this.setAll(rows) : 0;
  }

  byPath(path: string) {
    const r = this.byPathStmt.get(path);
    return r && toMedia(r);
  }

  byId(id: number) {
    const r = this.byIdStmt.get(id);
    return r && toMedia(r);
  }

  snapshot(folderId: number): Snapshot {
    const map: Snapshot = new Map();
    for (const r of this.snapshotStmt.iterate(folderId)) {
      map.set(r.path, {
        id: r.id,
        size: r.size,
        mtimeMs: r.mtime_ms,
        contentHash: r.content_hash,
        fileId: r.file_id,
      });
    }
    return map;
  }

  snapshotPage(folderId: number, afterPath: string, limit: number) {
    return this.snapshotPageStmt.all(folderId, afterPath, limit).map((r) => ({
      path: r.path,
      entry: {
        id: r.id,
        size: r.size,
        mtimeMs: r.mtime_ms,
        contentHash: r.content_hash,
        fileId: r.file_id,
      },
      present: r.present === 1,
    }));
  }

  anyUnhashed(): boolean {
    return this.unhashedStmt.get() !== undefined;
  }

  markMissing(ids: readonly number[]): void {
    this.markAllMissing(ids);
  }

  markError(id: number, code: string, message: string): void {
    this.errorStmt.run(code, message, id);
  }

  list(options: Parameters<Media['list']>[0]) {
    const params = {
      folders: options.folderIds?.length ? JSON.stringify(options.folderIds) : null,
      kind: options.kind ?? null,
      limit: options.limit ?? -1,
      after: options.afterPath ?? '',
    };
    const rows =
      options.needing === 'probe' && !options.includeErrors
        ? this.unprobedStmt.all(params)
        : this.listStmt.all({
            ...params,
            errors: options.includeErrors ? 1 : 0,
            needing: options.needing ?? null,
          });
    return rows.map(mediaFromValues);
  }

  listIds(options: { folderIds?: readonly number[]; includeErrors?: boolean }): number[] {
    return this.idsStmt.all({
      folders: options.folderIds?.length ? JSON.stringify(options.folderIds) : null,
      errors: options.includeErrors ? 1 : 0,
    });
  }

  /** Media not missing (errors included, so the user sees them), with their box counts. */
  page(options: { solution: string; limit: number; afterPath?: string }): MediaPageRow[] {
    return this.pageStmt
      .all({ solution: options.solution, limit: options.limit, after: options.afterPath ?? '' })
      .map((r) => ({ media: toMedia(r), boxCount: r.box_count }));
  }

  /** Media not missing, the same set `page` walks through. */
  count(): number {
    return this.countStmt.get()?.n ?? 0;
  }
}
