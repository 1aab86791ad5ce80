/** The library's side of a team project (migration 10): statements prepared once. */
import type { Db } from '../../node-lib/sqlite.js';
import type { ResultRow } from './row-types.js';
import { CHANGE_COLUMNS, toChange, type ChangeRow } from './team-change-row.js';
import { teamConflictsRepo } from './team-conflicts-repo.js';
import { teamFailoverRepo } from './team-failover-repo.js';
import { teamMarksRepo } from './team-marks-repo.js';
import { teamRejoin } from './team-rejoin.js';
import { teamPulledWrites } from './team-pulled-writes.js';
import { teamSettleRepo } from './team-settle-repo.js';
import { teamTriggers } from './team-triggers.js';
import type { PulledChange, TeamApi, TeamBoxRow, TeamLink, TeamLinkRow } from './team-types.js';

export function teamRepo(db: Db): TeamApi {
  const linkStmt = db.prepare<
    [],
    {
      hub: string;
      project: string;
      folder: string;
      member: string;
      member_role: 'lead' | 'annotator';
      pull_cursor: number;
      last_sync_at: number | null;
      joined_at: number;
    }
  >('SELECT * FROM team_project WHERE id = 1');
  const setLinkStmt = db.prepare(
    `INSERT INTO team_project (id, hub, project, folder, member, member_role, joined_at)
     VALUES (1, @hub, @project, @folder, @member, @role, @at)`,
  );
  const outboxStmt = db.prepare<[number], ChangeRow>(
    `SELECT ${CHANGE_COLUMNS} FROM team_changes WHERE pushed = 0 ORDER BY seq_local LIMIT ?`,
  );
  const markPushedStmt = db.prepare<[string]>('UPDATE team_changes SET pushed = 1 WHERE id = ?');
  const byBoxStmt = db.prepare<[string], ChangeRow>(
    `SELECT ${CHANGE_COLUMNS} FROM team_changes WHERE box = ? ORDER BY seq_local`,
  );
  const countOfBoxStmt = db
    .prepare<[string], number>('SELECT count(*) FROM team_changes WHERE box = ?')
    .pluck();
  const hasCorrectionStmt = db
    .prepare<[number], number>('SELECT count(*) FROM corrections WHERE id = ?')
    .pluck();
  const boxStmt = db.prepare<
    [string],
    { box: string; correction_id: number | null; heads: string; shown: string | null }
  >('SELECT box, correction_id, heads, shown FROM team_boxes WHERE box = ?');
  const setBoxStmt = db.prepare(
    `INSERT INTO team_boxes (box, correction_id, heads, shown)
     VALUES (@box, @correctionId, @heads, @shown)
     ON CONFLICT (box) DO UPDATE SET correction_id = excluded.correction_id,
       heads = excluded.heads, shown = excluded.shown`,
  );
  const applyingOn = db.prepare('INSERT OR IGNORE INTO team_applying (id) VALUES (1)');
  const applyingOff = db.prepare('DELETE FROM team_applying');
  const cursorStmt = db.prepare<[number, number]>(
    'UPDATE team_project SET pull_cursor = max(pull_cursor, ?), last_sync_at = ? WHERE id = 1',
  );
  const countsStmt = db.prepare<[], { pendingPush: number; conflicts: number }>(
    `SELECT (SELECT count(*) FROM team_changes WHERE pushed = 0) AS pendingPush,
       (SELECT count(*) FROM team_boxes WHERE json_array_length(heads) > 1) AS conflicts`,
  );
  const resultsStmt = db.prepare<[string], ResultRow>(
    `SELECT id, content_hash AS contentHash, solution, service_url AS serviceUrl,
       analysed_width AS analysedWidth, analysed_height AS analysedHeight, model,
       box_count AS boxCount, created_at AS createdAt
     FROM results WHERE content_hash IN (SELECT value FROM json_each(?))`,
  );
  const pulled = teamPulledWrites(db);
  const recordMany = db.transaction((changes: readonly PulledChange[]) =>
    pulled.recordPulled(changes),
  );
  const rejoin = teamRejoin(db);
  const triggers = teamTriggers(db);
  // The change and box records stay: joining this project again republishes only what changed.
  const unlinkTx = db.transaction(() => {
    rejoin.noteLeaving();
    for (const table of ['team_project', 'team_applying']) {
      db.prepare(`DELETE FROM ${table}`).run();
    }
    triggers.remove();
  });
  // Joining publishes the library's earlier corrections too: touching each row fires migration
  // 10's trigger, which gives it a box and records it as a change based on nothing seen.
  const publishAll = db.prepare('UPDATE corrections SET updated_at = updated_at');
  const publishMarks = db.prepare('UPDATE reviewed_media SET reviewed_at = reviewed_at');
  const setLinkTx = db.transaction((link: TeamLink, at: number) => {
    const again = rejoin.keepsRecords(link);
    triggers.install();
    setLinkStmt.run({ ...link, at });
    if (again) rejoin.republishChanged(at);
    else {
      publishAll.run();
      publishMarks.run();
    }
    rejoin.forgetLeaving();
  });
  const markPushedTx = db.transaction((ids: readonly string[]) => {
    for (const id of ids) markPushedStmt.run(id);
  });

  return {
    link(): TeamLinkRow | undefined {
      const r = linkStmt.get();
      return (
        r && {
          hub: r.hub,
          project: r.project,
          folder: r.folder,
          member: r.member,
          role: r.member_role,
          pullCursor: r.pull_cursor,
          lastSyncAt: r.last_sync_at,
          joinedAt: r.joined_at,
        }
      );
    },
    setLink: (link: TeamLink, at: number) => setLinkTx(link, at),
    unlink: () => unlinkTx(),
    outbox: (limit) => outboxStmt.all(limit).map(toChange),
    markPushed: (ids) => markPushedTx(ids),
    recordPulled: (changes) => recordMany(changes),
    changesOfBox: (box) => byBoxStmt.all(box).map(toChange),
    countOfBox: (box) => countOfBoxStmt.get(box) ?? 0,
    hasCorrection: (id) => (hasCorrectionStmt.get(id) ?? 0) > 0,
    box(box): TeamBoxRow | undefined {
      const r = boxStmt.get(box);
      return (
        r && {
          box: r.box,
          correctionId: r.correction_id,
          heads: JSON.parse(r.heads) as string[],
          shown: r.shown,
        }
      );
    },
    setBox: (row) => void setBoxStmt.run({ ...row, heads: JSON.stringify(row.heads) }),
    setBoxes: (rows) => pulled.setBoxes(rows),
    applying: (on) => void (on ? applyingOn : applyingOff).run(),
    moveCursor: (seq, at) => void cursorStmt.run(seq, at),
    counts: () => countsStmt.get() ?? { pendingPush: 0, conflicts: 0 },
    marks: teamMarksRepo(db),
    failover: teamFailoverRepo(db),
    resultsOf: (hashes) => (hashes.length ? resultsStmt.all(JSON.stringify(hashes)) : []),
    ...teamConflictsRepo(db),
    settle: teamSettleRepo(db),
  };
}
