/** Library migrations 10–12: the team outbox, rejoin and shared marks. Never edited (hashes). */
import type { Migration } from '../../node-lib/sqlite.js';

// Parts of migration 10 (team-outbox), shared by its three triggers; never edited (the hash).
/** A box's key in a team project: a model box's is its anchor (every desktop derives the same); a drawn box's is random. */
const TEAM_BOX_KEY = `CASE WHEN NEW.anchor_label IS NULL
  THEN 'drawn:' || lower(hex(randomblob(16)))
  ELSE 'model:' || NEW.solution || ':' || NEW.content_hash || ':' || NEW.frame_index
    || ':' || NEW.anchor_label || ':' || printf('%.5f,%.5f,%.5f,%.5f',
    NEW.anchor_x, NEW.anchor_y, NEW.anchor_w, NEW.anchor_h) END`;
/** A random (version 4) UUID, the change's id on every desktop and in the hub. */
const TEAM_CHANGE_ID = `(SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3)
  || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21)
  FROM (SELECT lower(hex(randomblob(16))) AS h))`;
/** The correction's columns a change carries (not the local rule bookkeeping). */
export const TEAM_BOX_STATE = `json_object('frameIndex', NEW.frame_index, 'timeMs', NEW.time_ms,
  'anchorLabel', NEW.anchor_label, 'anchorScore', NEW.anchor_score, 'anchorX', NEW.anchor_x,
  'anchorY', NEW.anchor_y, 'anchorW', NEW.anchor_w, 'anchorH', NEW.anchor_h, 'label', NEW.label,
  'x', NEW.x, 'y', NEW.y, 'w', NEW.w, 'h', NEW.h, 'review', NEW.review, 'deleted', NEW.deleted,
  'track', NEW.track)`;
/** The box is now at the change just inserted (its one head, and the state its row holds). */
const TEAM_AT_NEW_CHANGE = `heads = json_array(
    (SELECT id FROM team_changes WHERE seq_local = last_insert_rowid())),
  shown = (SELECT id FROM team_changes WHERE seq_local = last_insert_rowid())`;
/**
 * The two triggers that record a saved correction (inserted or updated) as a change; a later
 * migration recreates them with a state carrying more columns (migrations-team-state.ts).
 */
export const teamCorrectionSaved = (
  event: 'INSERT' | 'UPDATE',
  name: string,
  state = TEAM_BOX_STATE,
) => `
  CREATE TRIGGER ${name} AFTER ${event} ON corrections
  WHEN EXISTS (SELECT 1 FROM team_project) AND NOT EXISTS (SELECT 1 FROM team_applying)
  BEGIN
    INSERT INTO team_boxes (box, correction_id, heads)
    SELECT ${TEAM_BOX_KEY}, NEW.id, '[]'
    WHERE NOT EXISTS (SELECT 1 FROM team_boxes WHERE correction_id = NEW.id)
    ON CONFLICT (box) DO UPDATE SET correction_id = excluded.correction_id;
    INSERT INTO team_changes (id, box, content_hash, solution, parents, state, at, own, pushed)
    SELECT ${TEAM_CHANGE_ID}, b.box, NEW.content_hash, NEW.solution, b.heads, ${state},
      NEW.updated_at, 1, 0
    FROM team_boxes b WHERE b.correction_id = NEW.id;
    UPDATE team_boxes SET ${TEAM_AT_NEW_CHANGE} WHERE correction_id = NEW.id;
  END;`;

/** Migration 12's triggers that record a file declared reviewed (inserted or updated) as a mark. */
const teamMarkSaved = (event: 'INSERT' | 'UPDATE', name: string) => `
  CREATE TRIGGER ${name} AFTER ${event} ON reviewed_media
  WHEN EXISTS (SELECT 1 FROM team_project) AND NOT EXISTS (SELECT 1 FROM team_applying)
  BEGIN
    INSERT INTO team_mark_changes (id, content_hash, solution, reviewed, reviewed_by, pushed)
    VALUES (${TEAM_CHANGE_ID}, NEW.content_hash, NEW.solution, 1, NEW.reviewed_by, 0);
  END;`;

export const TEAM_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'team-outbox',
    // A team project (electron/core/team/): this desktop's link to a hub, every change of a box it
    // knows (its own and the others'), and per box the change(s) it is at. The triggers fill the
    // outbox in the very transaction that saves a correction, whatever path saved it (an edit, an
    // undo, an import, an auto-accept), and only while a project is joined; changes pulled from
    // the hub are applied with a row in `team_applying` (inside that transaction only), so they do
    // not go out again. See README "Working as a team" for the rule for concurrent changes.
    sql: `
      CREATE TABLE team_project (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        hub TEXT NOT NULL,
        project TEXT NOT NULL,
        folder TEXT NOT NULL,
        member TEXT NOT NULL,
        member_role TEXT NOT NULL CHECK (member_role IN ('lead', 'annotator')),
        pull_cursor INTEGER NOT NULL DEFAULT 0,
        last_sync_at INTEGER,
        joined_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE team_changes (
        seq_local INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        box TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        solution TEXT NOT NULL,
        -- JSON array of the change ids this one was based on (the box's version it saw).
        parents TEXT NOT NULL,
        -- JSON of the box's correction columns; NULL: the box as the model has it.
        state TEXT,
        member TEXT,
        at INTEGER NOT NULL,
        own INTEGER NOT NULL CHECK (own IN (0, 1)),
        pushed INTEGER NOT NULL CHECK (pushed IN (0, 1)),
        hub_seq INTEGER
      ) STRICT;
      CREATE INDEX team_changes_by_box ON team_changes(box);
      CREATE INDEX team_outbox ON team_changes(seq_local) WHERE pushed = 0;

      CREATE TABLE team_boxes (
        box TEXT PRIMARY KEY,
        correction_id INTEGER UNIQUE,
        -- JSON array of the box's head changes: more than one is a conflict.
        heads TEXT NOT NULL,
        -- The change whose state the correction row holds.
        shown TEXT
      ) STRICT;

      CREATE TABLE team_applying (id INTEGER PRIMARY KEY) STRICT;

      ${teamCorrectionSaved('INSERT', 'team_correction_inserted')}
      ${teamCorrectionSaved('UPDATE', 'team_correction_updated')}

      -- An auto-accept's undo deletes the rows it created: the box is back to the model's.
      CREATE TRIGGER team_correction_deleted AFTER DELETE ON corrections
      WHEN EXISTS (SELECT 1 FROM team_project) AND NOT EXISTS (SELECT 1 FROM team_applying)
      BEGIN
        INSERT INTO team_changes (id, box, content_hash, solution, parents, state, at, own, pushed)
        SELECT ${TEAM_CHANGE_ID}, b.box, OLD.content_hash, OLD.solution, b.heads, NULL,
          CAST(unixepoch('subsec') * 1000 AS INTEGER), 1, 0
        FROM team_boxes b WHERE b.correction_id = OLD.id;
        UPDATE team_boxes SET correction_id = NULL, ${TEAM_AT_NEW_CHANGE}
        WHERE correction_id = OLD.id;
      END;
    `,
  },
  {
    version: 11,
    name: 'team-rejoin',
    // A library that leaves a project keeps its change and box records (team-rejoin.ts), noting
    // which project they are of: joining that project again republishes only the corrections the
    // hub lacks (changed while away), based on the versions already seen, with no conflict with
    // its own earlier changes; joining another project starts afresh.
    sql: `
      CREATE TABLE team_left (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        hub TEXT NOT NULL,
        project TEXT NOT NULL,
        left_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 12,
    name: 'team-marks',
    // Review marks reach the team too (electron/core/team/team-marks-sync.ts): declaring a file
    // reviewed, or no longer, writes a mark into this outbox in the same transaction, only while
    // the library is in a project and not while pulled marks are applied (team_applying). Marks
    // travel by content; a file's mark is the last one in the hub's order.
    sql: `
      CREATE TABLE team_mark_changes (
        seq_local INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        content_hash TEXT NOT NULL,
        solution TEXT NOT NULL,
        reviewed INTEGER NOT NULL CHECK (reviewed IN (0, 1)),
        reviewed_by TEXT,
        pushed INTEGER NOT NULL CHECK (pushed IN (0, 1))
      ) STRICT;
      CREATE INDEX team_mark_outbox ON team_mark_changes(seq_local) WHERE pushed = 0;
      CREATE TABLE team_mark_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL) STRICT;

      ${teamMarkSaved('INSERT', 'team_mark_set')}
      ${teamMarkSaved('UPDATE', 'team_mark_reset')}
      -- A file leaving the library (its mark goes with it) is no unmarking for the team.
      CREATE TRIGGER team_mark_unset AFTER DELETE ON reviewed_media
      WHEN EXISTS (SELECT 1 FROM team_project) AND NOT EXISTS (SELECT 1 FROM team_applying)
        AND EXISTS (SELECT 1 FROM media WHERE id = OLD.media_id)
      BEGIN
        INSERT INTO team_mark_changes (id, content_hash, solution, reviewed, reviewed_by, pushed)
        VALUES (${TEAM_CHANGE_ID}, OLD.content_hash, OLD.solution, 0, NULL, 0);
      END;
    `,
  },
];
