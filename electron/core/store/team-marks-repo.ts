/** Review marks shared with the team (migration 12): the outbox, the cursor, applying pulled marks. */
import type { Db } from '../../node-lib/sqlite.js';
import type { PulledMark, TeamMark, TeamMarksApi } from './team-marks-types.js';

interface MarkRow {
  id: string;
  content_hash: string;
  solution: string;
  reviewed: number;
  reviewed_by: 'person' | 'import' | null;
}

export function teamMarksRepo(db: Db): TeamMarksApi {
  const outboxStmt = db.prepare<[number], MarkRow>(
    `SELECT id, content_hash, solution, reviewed, reviewed_by FROM team_mark_changes
     WHERE pushed = 0 ORDER BY seq_local LIMIT ?`,
  );
  const pushedStmt = db.prepare<[string]>('UPDATE team_mark_changes SET pushed = 1 WHERE id = ?');
  const cursorStmt = db
    .prepare<[], number>('SELECT seq FROM team_mark_cursor WHERE id = 1')
    .pluck();
  const moveStmt = db.prepare<[number]>(
    `INSERT INTO team_mark_cursor (id, seq) VALUES (1, ?)
     ON CONFLICT (id) DO UPDATE SET seq = max(seq, excluded.seq)`,
  );
  const ownStmt = db
    .prepare<[string], number>('SELECT 1 FROM team_mark_changes WHERE id = ?')
    .pluck();
  const ownLatestStmt = db
    .prepare<[string, string], string>(
      `SELECT id FROM team_mark_changes WHERE content_hash = ? AND solution = ?
       ORDER BY seq_local DESC LIMIT 1`,
    )
    .pluck();
  const ownWaitingStmt = db
    .prepare<[string, string], number>(
      `SELECT 1 FROM team_mark_changes WHERE content_hash = ? AND solution = ? AND pushed = 0`,
    )
    .pluck();
  /**
   * A file's mark is the one logged last in the hub, on every desktop. This desktop's own mark is
   * applied again when the log reaches it (another member's, logged before it, may have been
   * applied over it), unless a newer own mark of the file exists; another member's is not applied
   * over an own mark still to be pushed (logged after it, that one wins).
   */
  const wins = (m: PulledMark) =>
    ownStmt.get(m.id)
      ? ownLatestStmt.get(m.contentHash, m.solution) === m.id
      : !ownWaitingStmt.get(m.contentHash, m.solution);
  // Every file of the content gets the mark (files are matched by content on every desktop).
  const setStmt = db.prepare(
    `INSERT INTO reviewed_media (media_id, solution, content_hash, reviewed_at, reviewed_by)
     SELECT id, @solution, content_hash, @at, @by FROM media WHERE content_hash = @hash
     ON CONFLICT (media_id, solution) DO UPDATE SET content_hash = excluded.content_hash,
       reviewed_at = excluded.reviewed_at, reviewed_by = excluded.reviewed_by`,
  );
  const unsetStmt = db.prepare(
    'DELETE FROM reviewed_media WHERE solution = @solution AND content_hash = @hash',
  );
  const applyingOn = db.prepare('INSERT OR IGNORE INTO team_applying (id) VALUES (1)');
  const applyingOff = db.prepare('DELETE FROM team_applying');
  const lastPushedStmt = db
    .prepare<[number], string>(
      'SELECT id FROM team_mark_changes WHERE pushed = 1 ORDER BY seq_local DESC LIMIT ?',
    )
    .pluck();
  const unpushedStmt = db.prepare<[string]>('UPDATE team_mark_changes SET pushed = 0 WHERE id = ?');
  const rewindStmt = db.prepare<[number]>('UPDATE team_mark_cursor SET seq = min(seq, ?)');
  const markPushedTx = db.transaction((ids: readonly string[], pushed: boolean) => {
    for (const id of ids) (pushed ? pushedStmt : unpushedStmt).run(id);
  });
  const applyTx = db.transaction((marks: readonly PulledMark[], at: number) => {
    applyingOn.run();
    try {
      for (const m of marks) {
        if (!wins(m)) continue;
        const args = { solution: m.solution, hash: m.contentHash };
        if (m.reviewed) setStmt.run({ ...args, at, by: m.reviewedBy ?? 'person' });
        else unsetStmt.run(args);
      }
    } finally {
      applyingOff.run();
    }
    moveStmt.run(Math.max(...marks.map((m) => m.seq)));
  });
  return {
    outbox: (limit): TeamMark[] =>
      outboxStmt.all(limit).map((r) => ({
        id: r.id,
        contentHash: r.content_hash,
        solution: r.solution,
        reviewed: r.reviewed === 1,
        reviewedBy: r.reviewed_by,
      })),
    markPushed: (ids) => markPushedTx(ids, true),
    lastPushed: (limit) => lastPushedStmt.all(limit),
    pushAgain: (ids) => markPushedTx(ids, false),
    rewindCursor: (seq) => void rewindStmt.run(seq),
    cursor: () => cursorStmt.get() ?? 0,
    applyPulled(marks) {
      if (marks.length > 0) applyTx(marks, Date.now());
    },
  };
}
