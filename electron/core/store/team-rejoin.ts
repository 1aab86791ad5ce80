/**
 * Leaving a project and joining it again (migration 11). Leaving keeps the library's change and
 * box records and notes whose they are; joining the same project again then republishes only what
 * the hub lacks: changes never pushed keep their ids (a push of one the hub has is a no-op), and
 * a correction changed while away (or a box whose correction went) becomes a change based on the
 * box's heads as last seen, so the member's earlier changes are its parents, never its rivals.
 * Joining another project forgets the records and publishes every correction afresh.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../node-lib/sqlite.js';
import { wireFrameIndex } from './keyframe-column.js';
import type { TeamLink } from './team-types.js';

/** A change's state fields and the correction columns they hold (migrations 10, 17 and 18). */
const STATE_COLUMNS: Readonly<Record<string, string>> = {
  frameIndex: 'frame_index',
  timeMs: 'time_ms',
  anchorLabel: 'anchor_label',
  anchorScore: 'anchor_score',
  anchorX: 'anchor_x',
  anchorY: 'anchor_y',
  anchorW: 'anchor_w',
  anchorH: 'anchor_h',
  label: 'label',
  x: 'x',
  y: 'y',
  w: 'w',
  h: 'h',
  review: 'review',
  deleted: 'deleted',
  track: 'track',
  // Migration 17's: a state made before lacks them, which is 0 (coco: null).
  personMade: 'person_made',
  crowd: 'crowd',
  coco: 'coco',
};
const ABSENT_IS_ZERO = new Set(['personMade', 'crowd']);

/** Field by field (a number is equal whether its JSON says 1 or 1.0). */
const SHOWN_IS_ROW = Object.entries(STATE_COLUMNS)
  .map(([field, column]) => {
    const value = `json_extract(c.state, '$.${field}')`;
    // A state holds a keyframe's frame index as the wire does (migration 19).
    const row = field === 'frameIndex' ? wireFrameIndex('corrections.') : `corrections.${column}`;
    return `${ABSENT_IS_ZERO.has(field) ? `coalesce(${value}, 0)` : value} IS ${row}`;
  })
  .join(' AND ');

export interface TeamRejoin {
  /** Notes the project the records are of, before its link goes. */
  noteLeaving(): void;
  /** Before the link is stored: whether the records are of this project (else they go). */
  keepsRecords(link: TeamLink): boolean;
  /** After the link is stored, with records kept: the work the hub lacks becomes changes. */
  republishChanged(at: number): void;
  forgetLeaving(): void;
}

export function teamRejoin(db: Db): TeamRejoin {
  const note = db.prepare(
    `INSERT OR REPLACE INTO team_left (id, hub, project, left_at)
     SELECT 1, hub, project, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM team_project`,
  );
  const left = db.prepare<[], { hub: string; project: string }>(
    'SELECT hub, project FROM team_left WHERE id = 1',
  );
  const forgetChanges = db.prepare('DELETE FROM team_changes');
  const forgetBoxes = db.prepare('DELETE FROM team_boxes');
  const forgetMarks = db.prepare('DELETE FROM team_mark_changes');
  const forgetMarkCursor = db.prepare('DELETE FROM team_mark_cursor');
  // Touching a mark fires migration 12's trigger: the mark goes to the team.
  const touchMarksSince = db.prepare(
    'UPDATE reviewed_media SET reviewed_at = reviewed_at WHERE reviewed_at > (SELECT left_at FROM team_left)',
  );
  const forgetLeft = db.prepare('DELETE FROM team_left');
  // Touching a row fires migration 10's trigger: a change based on the box's heads.
  const touchChanged = db.prepare(
    `UPDATE corrections SET updated_at = updated_at WHERE NOT EXISTS (
       SELECT 1 FROM team_boxes b JOIN team_changes c ON c.id = b.shown
       WHERE b.correction_id = corrections.id AND c.state IS NOT NULL AND ${SHOWN_IS_ROW})`,
  );
  const gone = db.prepare<
    [],
    { box: string; heads: string; content_hash: string; solution: string }
  >(
    `SELECT b.box, b.heads, c.content_hash, c.solution FROM team_boxes b
     JOIN team_changes c ON c.id = (SELECT id FROM team_changes WHERE box = b.box LIMIT 1)
     WHERE b.correction_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM corrections k WHERE k.id = b.correction_id)`,
  );
  const addChange = db.prepare(
    `INSERT INTO team_changes (id, box, content_hash, solution, parents, state, at, own, pushed)
     VALUES (@id, @box, @contentHash, @solution, @parents, NULL, @at, 1, 0)`,
  );
  const boxAt = db.prepare<[string, string, string]>(
    `UPDATE team_boxes SET correction_id = NULL, heads = json_array(?), shown = ? WHERE box = ?`,
  );
  return {
    noteLeaving: () => void note.run(),
    keepsRecords(link) {
      const l = left.get();
      if (l?.hub === link.hub && l.project === link.project) return true;
      forgetChanges.run();
      forgetBoxes.run();
      forgetMarks.run();
      forgetMarkCursor.run();
      return false;
    },
    republishChanged(at) {
      // A box whose correction went while away (an auto-accept undone) is back to the model's.
      for (const g of gone.all()) {
        const id = randomUUID();
        addChange.run({
          id,
          box: g.box,
          contentHash: g.content_hash,
          solution: g.solution,
          parents: g.heads,
          at,
        });
        boxAt.run(id, id, g.box);
      }
      touchChanged.run();
      touchMarksSince.run();
    },
    forgetLeaving: () => void forgetLeft.run(),
  };
}
