/** Boxes in conflict in a team project (migration 10's tables), and changes made without a save. */
import type { Db } from '../../node-lib/sqlite.js';
import { toChange, type ChangeRow } from './team-change-row.js';
import type { TeamApi, TeamChange, TeamConflictRow } from './team-types.js';

interface HeadRow extends ChangeRow {
  shown: string | null;
  path: string | null;
  correction_id: number | null;
  member: string | null;
  own: number;
}

// One row per head of every box with more than one head, with any present file of its content.
const HEADS_SQL = `
  SELECT b.box, b.shown, b.correction_id, c.id, c.content_hash, c.solution, c.parents, c.state, c.member, c.at,
    c.own, (SELECT m.path FROM media m WHERE m.content_hash = c.content_hash
      AND m.status = 'present' ORDER BY m.path LIMIT 1) AS path
  FROM team_boxes b, json_each(b.heads) h JOIN team_changes c ON c.id = h.value
  WHERE json_array_length(b.heads) > 1`;

export function teamConflictsRepo(db: Db): Pick<TeamApi, 'conflicts' | 'recordOwn'> {
  const all = db.prepare<[], HeadRow>(`${HEADS_SQL} ORDER BY b.box, c.at, c.id`);
  const ofContent = db.prepare<[string], HeadRow>(
    `${HEADS_SQL} AND c.content_hash = ? ORDER BY b.box, c.at, c.id`,
  );
  const record = db.prepare(
    `INSERT INTO team_changes (id, box, content_hash, solution, parents, state, at, own, pushed)
     VALUES (@id, @box, @contentHash, @solution, @parents, @state, @at, 1, 0)`,
  );
  return {
    conflicts(contentHash) {
      const rows = contentHash === undefined ? all.all() : ofContent.all(contentHash);
      const byBox = new Map<string, TeamConflictRow>();
      for (const r of rows) {
        let c = byBox.get(r.box);
        if (!c) {
          c = {
            box: r.box,
            heads: [],
            shown: r.shown,
            path: r.path,
            correctionId: r.correction_id,
          };
          byBox.set(r.box, c);
        }
        c.heads.push({ ...toChange(r), member: r.member, own: r.own === 1 });
      }
      return [...byBox.values()];
    },
    recordOwn(change: TeamChange) {
      record.run({
        ...change,
        parents: JSON.stringify(change.parents),
        state: change.state === null ? null : JSON.stringify(change.state),
      });
    },
  };
}
