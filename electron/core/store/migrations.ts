/**
 * The library database schema. Forward-only: an applied migration is never edited (its hash is
 * recorded and checked on every open); a change is a new numbered entry at the end. A CHECK of a
 * table written in bulk names its values in a CASE, not an IN list of three or more (SQLite builds
 * a probe table for such a list on every run of a statement: migration 25).
 */
import type { Migration } from '../../node-lib/sqlite.js';
import { CORE_MIGRATIONS } from './migrations-core.js';
import { TEAM_MIGRATIONS } from './migrations-team.js';
import { KEYFRAME_FIELD_SQL } from './migrations-keyframe.js';
import { REVIEW_CHECK_SQL } from './migrations-review-check.js';
import { CONTENT_IDS_SQL } from './migrations-content-ids.js';
import {
  TEAM_REPUBLISH_IMPORTS_SQL,
  TEAM_STATE_WITH_IMPORTS_SQL,
} from './migrations-team-state.js';

// Split by version range to keep files small; new migrations are appended at the end of this list.
export const LIBRARY_MIGRATIONS: readonly Migration[] = [
  ...CORE_MIGRATIONS,
  ...TEAM_MIGRATIONS,
  {
    version: 13,
    name: 'drop-detection-pixel-boxes',
    // A box is stored once, normalised; pixels are computed where they are needed (exports, the
    // canvas), so the analysed-pixel copy was written on every save and read by nothing.
    sql: `
      ALTER TABLE detections DROP COLUMN px;
      ALTER TABLE detections DROP COLUMN py;
      ALTER TABLE detections DROP COLUMN pw;
      ALTER TABLE detections DROP COLUMN ph;
    `,
  },
  {
    version: 14,
    name: 'coco-as-coco',
    // COCO as COCO defines it (README "Import"/"Export"): a box may be a crowd region (`iscrowd`);
    // an imported annotation keeps the fields LabelDesk does not edit (its id, segmentation, area,
    // with the box they were given for: once the box is edited they no longer apply); a file and a
    // class from a COCO import keep their image and category ids and extra fields, and the
    // dataset its info and licenses, so an export gives them back. A detection may have no score
    // (a service that gives none): the table is rebuilt, as SQLite cannot drop a NOT NULL.
    sql: `
      ALTER TABLE corrections ADD COLUMN crowd INTEGER NOT NULL DEFAULT 0 CHECK (crowd IN (0, 1));
      ALTER TABLE corrections ADD COLUMN coco TEXT;

      CREATE TABLE coco_images (
        media_id INTEGER PRIMARY KEY REFERENCES media(id) ON DELETE CASCADE,
        -- The image's id as JSON (a number in COCO; kept as given).
        image_id TEXT NOT NULL,
        -- JSON object of the image's other fields (license, coco_url, date_captured, ...).
        extra TEXT NOT NULL
      ) STRICT;
      CREATE TABLE coco_categories (
        solution TEXT NOT NULL,
        label TEXT NOT NULL,
        category_id INTEGER NOT NULL,
        -- JSON object of the category's other fields (supercategory, ...).
        extra TEXT NOT NULL,
        PRIMARY KEY (solution, label)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE coco_datasets (
        solution TEXT PRIMARY KEY,
        info TEXT,
        licenses TEXT
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE detections_scoreless (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        frame_index INTEGER NOT NULL,
        time_ms REAL,
        label TEXT NOT NULL,
        class_id INTEGER,
        score REAL,
        x REAL NOT NULL,
        y REAL NOT NULL,
        w REAL NOT NULL,
        h REAL NOT NULL,
        origin TEXT NOT NULL DEFAULT 'model'
          CHECK (CASE origin WHEN 'model' THEN 1 WHEN 'edited' THEN 1 WHEN 'added' THEN 1 ELSE 0 END),
        review TEXT NOT NULL DEFAULT 'pending'
          CHECK (CASE review WHEN 'pending' THEN 1 WHEN 'accepted' THEN 1 WHEN 'rejected' THEN 1 ELSE 0 END)
      ) STRICT;
      INSERT INTO detections_scoreless SELECT * FROM detections;
      DROP TABLE detections;
      ALTER TABLE detections_scoreless RENAME TO detections;
      CREATE INDEX detections_by_result ON detections(result_id, frame_index);
    `,
  },
  {
    version: 15,
    name: 'answers-read-under-an-assumed-origin',
    // Issue 23: a paid answer read while its service's box origin was undecided (x,y assumed the
    // corner) is kept as received, marked, so that once the origin is confirmed it is read again
    // with that convention and its model boxes replaced (a person's corrections kept).
    sql: `
      ALTER TABLE raw_answers ADD COLUMN origin_pending INTEGER NOT NULL DEFAULT 0
        CHECK (origin_pending IN (0, 1));
      CREATE INDEX raw_answers_origin_pending ON raw_answers(id) WHERE origin_pending = 1;
    `,
  },
  {
    version: 16,
    name: 'imported-boxes-are-the-persons',
    // Issue 24: a label an import put on a model box is the person's ground truth, not the
    // model's detection: the box shows and exports no score (so `--min-score` never drops it),
    // while the evaluation still reads the model's own box and score. Set by imports only; a
    // later edit keeps it.
    sql: `
      ALTER TABLE corrections ADD COLUMN person_made INTEGER NOT NULL DEFAULT 0
        CHECK (person_made IN (0, 1));
    `,
  },
  {
    version: 17,
    name: 'team-state-carries-imports',
    // Issue 25: a change of a box carries what an import set on it (the person's box, a crowd
    // region, the kept COCO fields), so a teammate's library shows it as the importer's does.
    sql: TEAM_STATE_WITH_IMPORTS_SQL,
  },
  {
    version: 18,
    name: 'detections-shown-by-score',
    // Issue 27: the Library counts each file's boxes from the library's minimum score (and sorts
    // by that count). With ~60 boxes per image, reading every row took seconds; this index holds
    // only a live box's result and score (~20 B), so the count reads the few entries above the
    // score. Any threshold works, and SQLite keeps it right on every write, as boxes are appended.
    sql: `
      CREATE INDEX detections_shown ON detections(result_id, score) WHERE review != 'rejected';
    `,
  },
  {
    version: 19,
    name: 'keyframe-is-a-field',
    // Issue 22: a keyframe between analysed frames is flagged, with its real clip frame.
    sql: KEYFRAME_FIELD_SQL,
  },
  {
    version: 20,
    name: 'team-republish-imports',
    // Issue 25: boxes imported before migration 17 publish what the import set, once.
    sql: TEAM_REPUBLISH_IMPORTS_SQL,
  },
  {
    version: 21,
    name: 'answers-read-again-by-evidence',
    // Issue 23: a held answer read again with the origin its service's boxes decided stays open to
    // a person's word: the origin it was read with is kept here, so that a person confirming the
    // other one reads it back (a person's choice wins). A table of its own, created if absent.
    sql: `
      CREATE TABLE IF NOT EXISTS raw_answers_decided (
        raw_answer_id INTEGER PRIMARY KEY REFERENCES raw_answers(id) ON DELETE CASCADE,
        origin TEXT NOT NULL CHECK (origin IN ('corner', 'centre'))
      ) STRICT;
    `,
  },
  {
    version: 22,
    name: 'media-unprobed-index',
    // Issue 24: the files still to probe, in path order, without reading every row: at a start on
    // a probed library of 100k files, finding none held the loop 120 ms (the app served nothing).
    sql: `
      CREATE INDEX IF NOT EXISTS media_unprobed ON media(path) WHERE width IS NULL;
    `,
  },
  {
    version: 23,
    name: 'team-triggers-only-in-a-project',
    // Issue 24: the team outbox's triggers cost every insert of a correction a trigger program
    // even outside a project. Their SQL is kept here and they exist only while a project is
    // joined (team-triggers.ts installs them again on the open after this migration).
    sql: `
      CREATE TABLE team_triggers (name TEXT PRIMARY KEY, sql TEXT NOT NULL) STRICT;
      INSERT INTO team_triggers (name, sql)
        SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name GLOB 'team_*';
      DROP TRIGGER IF EXISTS team_correction_inserted;
      DROP TRIGGER IF EXISTS team_correction_updated;
      DROP TRIGGER IF EXISTS team_correction_deleted;
      DROP TRIGGER IF EXISTS team_mark_set;
      DROP TRIGGER IF EXISTS team_mark_reset;
      DROP TRIGGER IF EXISTS team_mark_unset;
    `,
  },
  {
    version: 24,
    name: 'detections-shown-by-flag',
    // Issue 24: migration 18's index kept only boxes whose review is not 'rejected', so every
    // write of a box's review (an import accepts a million) rewrote its entry too, even when the
    // box stayed shown: SQLite updates a partial index whenever a column its condition reads is
    // set. The condition now reads a flag that changes only when a box is rejected or no longer
    // is (mirror-writes.ts); the library view reads the same entries. The few rejected boxes are
    // found by their own index when a write may restore them.
    sql: `
      ALTER TABLE detections ADD COLUMN rejected INTEGER NOT NULL DEFAULT 0
        CHECK (rejected IN (0, 1));
      UPDATE detections SET rejected = 1 WHERE review = 'rejected';
      DROP INDEX detections_shown;
      CREATE INDEX detections_shown ON detections(result_id, score) WHERE rejected = 0;
      CREATE INDEX detections_rejected ON detections(result_id) WHERE rejected = 1;
    `,
  },
  {
    version: 25,
    name: 'corrections-review-checked-in-place',
    // Issue 24: the review CHECK without an IN list, which cost the import's bulk insert a probe
    // table per statement (migrations-review-check.ts).
    sql: REVIEW_CHECK_SQL,
  },
  {
    version: 26,
    name: 'corrections-keyed-by-content-number',
    // Issue 24: the corrections' content index on a number given in the library's order, so an
    // import appends to it (migrations-content-ids.ts).
    sql: CONTENT_IDS_SQL,
  },
];
