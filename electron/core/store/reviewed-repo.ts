/** Which files are reviewed for a solution (see migration 3): marks kept beside the results. */
import type { Db } from '../../node-lib/sqlite.js';
import type { LibraryStore, ReviewedBy, ReviewedMark } from './store-types.js';

interface MarkDbRow {
  media_id: number;
  solution: string;
  content_hash: string;
  reviewed_at: number;
  reviewed_by: ReviewedBy;
}

const toMark = (r: MarkDbRow): ReviewedMark => ({
  mediaId: r.media_id,
  solution: r.solution,
  contentHash: r.content_hash,
  reviewedAt: r.reviewed_at,
  reviewedBy: r.reviewed_by,
});

/** A mark counts only while the file still has the bytes that were reviewed. */
const CURRENT = 'JOIN media m ON m.id = v.media_id AND m.content_hash = v.content_hash';

export class ReviewedRepo implements Readonly<LibraryStore['reviewed']> {
  private readonly markTx;
  private readonly unmarkTx;
  private readonly ofStmt;
  private readonly countStmt;

  constructor(db: Db, now: () => number) {
    // One statement for the whole list (an import marks 100k files): the ids marked come back.
    const mark = db
      .prepare<[{ ids: string; solution: string; at: number; by: ReviewedBy }], number>(
        `INSERT INTO reviewed_media (media_id, solution, content_hash, reviewed_at, reviewed_by)
         SELECT id, @solution, content_hash, @at, @by FROM media
         WHERE id IN (SELECT value FROM json_each(@ids)) AND content_hash IS NOT NULL
         ON CONFLICT (media_id, solution) DO UPDATE SET content_hash = excluded.content_hash,
           reviewed_at = excluded.reviewed_at, reviewed_by = excluded.reviewed_by
         RETURNING media_id`,
      )
      .pluck();
    const unmark = db.prepare<[number, string]>(
      'DELETE FROM reviewed_media WHERE media_id = ? AND solution = ?',
    );
    this.ofStmt = db.prepare<[number, string], MarkDbRow>(
      `SELECT v.* FROM reviewed_media v ${CURRENT} WHERE v.media_id = ? AND v.solution = ?`,
    );
    this.countStmt = db
      .prepare<[string], number>(
        `SELECT count(*) FROM reviewed_media v ${CURRENT} WHERE v.solution = ?`,
      )
      .pluck();
    this.markTx = db.transaction((ids: readonly number[], solution: string, by: ReviewedBy) => {
      if (ids.length === 0) return [];
      const marked = new Set(mark.all({ ids: JSON.stringify(ids), solution, at: now(), by }));
      return ids.filter((id) => marked.has(id));
    });
    this.unmarkTx = db.transaction((ids: readonly number[], solution: string) =>
      ids.reduce((n, id) => n + unmark.run(id, solution).changes, 0),
    );
  }

  markReviewed(mediaIds: readonly number[], solution: string, by: ReviewedBy): number[] {
    return this.markTx(mediaIds, solution, by);
  }

  unmarkReviewed(mediaIds: readonly number[], solution: string): number {
    return this.unmarkTx(mediaIds, solution);
  }

  of(mediaId: number, solution: string): ReviewedMark | undefined {
    const r = this.ofStmt.get(mediaId, solution);
    return r && toMark(r);
  }

  count(solution: string): number {
    return this.countStmt.get(solution) ?? 0;
  }
}
