/**
 * The library database schema. Forward-only: an applied migration is never edited (its hash is
 * recorded and checked on every open); a change is a new numbered entry at the end.
 */
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
const TEAM_BOX_STATE = `json_object('frameIndex', NEW.frame_index, 'timeMs', NEW.time_ms,
  'anchorLabel', NEW.anchor_label, 'anchorScore', NEW.anchor_score, 'anchorX', NEW.anchor_x,
  'anchorY', NEW.anchor_y, 'anchorW', NEW.anchor_w, 'anchorH', NEW.anchor_h, 'label', NEW.label,
  'x', NEW.x, 'y', NEW.y, 'w', NEW.w, 'h', NEW.h, 'review', NEW.review, 'deleted', NEW.deleted,
  'track', NEW.track)`;
/** The box is now at the change just inserted (its one head, and the state its row holds). */
const TEAM_AT_NEW_CHANGE = `heads = json_array(
    (SELECT id FROM team_changes WHERE seq_local = last_insert_rowid())),
  shown = (SELECT id FROM team_changes WHERE seq_local = last_insert_rowid())`;
/** The two triggers that record a saved correction (inserted or updated) as a change. */
const teamCorrectionSaved = (event: 'INSERT' | 'UPDATE', name: string) => `
  CREATE TRIGGER ${name} AFTER ${event} ON corrections
  WHEN EXISTS (SELECT 1 FROM team_project) AND NOT EXISTS (SELECT 1 FROM team_applying)
  BEGIN
    INSERT INTO team_boxes (box, correction_id, heads)
    SELECT ${TEAM_BOX_KEY}, NEW.id, '[]'
    WHERE NOT EXISTS (SELECT 1 FROM team_boxes WHERE correction_id = NEW.id)
    ON CONFLICT (box) DO UPDATE SET correction_id = excluded.correction_id;
    INSERT INTO team_changes (id, box, content_hash, solution, parents, state, at, own, pushed)
    SELECT ${TEAM_CHANGE_ID}, b.box, NEW.content_hash, NEW.solution, b.heads, ${TEAM_BOX_STATE},
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

export const LIBRARY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'library-core',
    sql: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE folders (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        added_at INTEGER NOT NULL,
        last_scan_at INTEGER
      ) STRICT;

      -- Media and detections are the bulk-written tables: their CHECKs use CASE, because a CHECK
      -- with IN (...) builds a temporary lookup table for every row written (half the insert rate).
      CREATE TABLE media (
        id INTEGER PRIMARY KEY,
        folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
        path TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (CASE kind WHEN 'image' THEN 1 WHEN 'video' THEN 1 ELSE 0 END),
        size INTEGER NOT NULL CHECK (size >= 0),
        mtime_ms REAL NOT NULL,
        content_hash TEXT,
        width INTEGER,
        height INTEGER,
        orientation INTEGER NOT NULL DEFAULT 1 CHECK (orientation BETWEEN 1 AND 8),
        duration_ms REAL,
        fps REAL,
        status TEXT NOT NULL DEFAULT 'present'
          CHECK (CASE status WHEN 'present' THEN 1 WHEN 'missing' THEN 1 WHEN 'error' THEN 1 ELSE 0 END),
        error_code TEXT,
        error_message TEXT
      ) STRICT;
      CREATE INDEX media_by_hash ON media(content_hash);
      CREATE INDEX media_by_folder ON media(folder_id, path);

      -- One analysis per content and solution: duplicate files share it and are never paid twice.
      CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        content_hash TEXT NOT NULL,
        solution TEXT NOT NULL,
        service_url TEXT NOT NULL,
        analysed_width INTEGER NOT NULL,
        analysed_height INTEGER NOT NULL,
        model TEXT,
        box_count INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        UNIQUE (content_hash, solution)
      ) STRICT;

      CREATE TABLE detections (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        frame_index INTEGER NOT NULL,
        time_ms REAL,
        label TEXT NOT NULL,
        class_id INTEGER,
        score REAL NOT NULL,
        x REAL NOT NULL,
        y REAL NOT NULL,
        w REAL NOT NULL,
        h REAL NOT NULL,
        px REAL NOT NULL,
        py REAL NOT NULL,
        pw REAL NOT NULL,
        ph REAL NOT NULL,
        origin TEXT NOT NULL DEFAULT 'model'
          CHECK (CASE origin WHEN 'model' THEN 1 WHEN 'edited' THEN 1 WHEN 'added' THEN 1 ELSE 0 END),
        review TEXT NOT NULL DEFAULT 'pending'
          CHECK (CASE review WHEN 'pending' THEN 1 WHEN 'accepted' THEN 1 WHEN 'rejected' THEN 1 ELSE 0 END)
      ) STRICT;
      -- Also gives detections in frame order per result without a sort (export streams on it).
      CREATE INDEX detections_by_result ON detections(result_id, frame_index);

      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        service_url TEXT NOT NULL,
        solution TEXT NOT NULL,
        estimate_frames INTEGER NOT NULL,
        budget_frames INTEGER,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        status TEXT NOT NULL DEFAULT 'running'
          CHECK (status IN ('running', 'done', 'stopped', 'failed'))
      ) STRICT;

      CREATE TABLE submissions (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
        content_hash TEXT NOT NULL,
        solution TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'done',
          'failed', 'uncertain', 'cancelled', 'waiting-for-credits')),
        frames_reserved INTEGER NOT NULL CHECK (frames_reserved >= 0),
        frames_spent INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        error_code TEXT,
        error_message TEXT,
        job_id TEXT,
        job_status TEXT,
        job_progress REAL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX submissions_by_content ON submissions(content_hash, solution, id);
      CREATE INDEX submissions_by_state ON submissions(state);
      CREATE INDEX submissions_by_media ON submissions(media_id);
      CREATE INDEX submissions_by_run ON submissions(run_id);
      CREATE INDEX submissions_with_job ON submissions(id) WHERE job_id IS NOT NULL;

      -- Frames outlive the submission that spent them: the hourly budget must still count them.
      CREATE TABLE frames_ledger (
        id INTEGER PRIMARY KEY,
        service_url TEXT NOT NULL,
        submission_id INTEGER REFERENCES submissions(id) ON DELETE SET NULL,
        frames INTEGER NOT NULL,
        at INTEGER NOT NULL,
        hour INTEGER NOT NULL GENERATED ALWAYS AS (at / 3600000) STORED
      ) STRICT;
      CREATE INDEX ledger_by_service_time ON frames_ledger(service_url, at, frames);
      CREATE INDEX ledger_by_service_hour ON frames_ledger(service_url, hour);
      CREATE INDEX ledger_by_submission ON frames_ledger(submission_id);

      CREATE TABLE catalog_snapshots (
        id INTEGER PRIMARY KEY,
        service_url TEXT NOT NULL,
        version TEXT NOT NULL,
        body TEXT NOT NULL,
        at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX catalog_by_service ON catalog_snapshots(service_url, at, id);
    `,
  },
  {
    version: 2,
    name: 'corrections',
    // A person's work, beside the model's boxes and never inside them: re-analysis replaces a
    // result's detections, and these rows survive it (see electron/core/review/merge-corrections.ts).
    sql: `
      CREATE TABLE corrections (
        id INTEGER PRIMARY KEY,
        content_hash TEXT NOT NULL,
        solution TEXT NOT NULL,
        frame_index INTEGER NOT NULL,
        time_ms REAL,
        -- The model box it corrects, as the model gave it; all NULL for a box a person drew.
        anchor_label TEXT,
        anchor_score REAL,
        anchor_x REAL,
        anchor_y REAL,
        anchor_w REAL,
        anchor_h REAL,
        -- The person's label and box; NULL means "as the model has it".
        label TEXT,
        x REAL,
        y REAL,
        w REAL,
        h REAL,
        review TEXT NOT NULL DEFAULT 'pending'
          CHECK (review IN ('pending', 'accepted', 'rejected')),
        deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
        updated_at INTEGER NOT NULL,
        CHECK ((anchor_label IS NULL) = (anchor_x IS NULL)),
        CHECK (anchor_label IS NOT NULL OR (label IS NOT NULL AND x IS NOT NULL)),
        CHECK ((x IS NULL) = (y IS NULL) AND (x IS NULL) = (w IS NULL) AND (x IS NULL) = (h IS NULL))
      ) STRICT;
      CREATE INDEX corrections_by_content ON corrections(content_hash, solution, frame_index);

      -- Review states set on detections before this layer existed become corrections.
      INSERT INTO corrections (content_hash, solution, frame_index, time_ms, anchor_label,
        anchor_score, anchor_x, anchor_y, anchor_w, anchor_h, review, updated_at)
      SELECT r.content_hash, r.solution, d.frame_index, d.time_ms, d.label, d.score,
        d.x, d.y, d.w, d.h, d.review, r.created_at
      FROM detections d JOIN results r ON r.id = d.result_id
      WHERE d.review != 'pending';
    `,
  },
  {
    version: 3,
    name: 'reviewed-media',
    // A file a person (or an import) declared reviewed for a solution: its shown boxes are then
    // ground truth for the model's. Kept per file, beside results, so re-analysis keeps it; the
    // content hash it was reviewed at is recorded, and a file whose bytes changed is not reviewed.
    sql: `
      CREATE TABLE reviewed_media (
        media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
        solution TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        reviewed_at INTEGER NOT NULL,
        reviewed_by TEXT NOT NULL CHECK (reviewed_by IN ('person', 'import')),
        PRIMARY KEY (media_id, solution)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX reviewed_by_solution ON reviewed_media(solution, media_id);
    `,
  },
  {
    version: 4,
    name: 'media-file-identity',
    // `dev:ino` of the file a path resolved to when it was scanned: media are served and uploaded
    // only while the path still leads to that very file (a link swapped afterwards is refused).
    sql: `ALTER TABLE media ADD COLUMN file_id TEXT;`,
  },
  {
    version: 5,
    name: 'raw-answers',
    // A paid answer LabelDesk could not read, kept as received with its file: it is never sent
    // again until a person asks, and it is read again (no network) when the reading improves.
    sql: `
      CREATE TABLE raw_answers (
        id INTEGER PRIMARY KEY,
        submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
        content_hash TEXT NOT NULL,
        solution TEXT NOT NULL,
        service_url TEXT NOT NULL,
        answer TEXT NOT NULL CHECK (answer IN ('imageResult', 'videoSubmission', 'job')),
        http_status INTEGER NOT NULL,
        body TEXT NOT NULL,
        problems TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        read_at INTEGER
      ) STRICT;
      CREATE INDEX raw_answers_unread ON raw_answers(id) WHERE read_at IS NULL;
      CREATE INDEX raw_answers_by_submission ON raw_answers(submission_id);
    `,
  },
  {
    version: 6,
    name: 'person-tracks',
    sql: `
      -- The track a person put the box in (merging or splitting tracks of a clip); NULL: the
      -- tracker's. A person's track wins over the tracker and keeps its number on every re-run.
      ALTER TABLE corrections ADD COLUMN track INTEGER CHECK (track IS NULL OR track >= 1);
    `,
  },
  {
    version: 7,
    name: 'learnt-costs',
    // Frame costs a service does not publish in a form LabelDesk reads, learnt from what a call
    // cost (the answer's credits, or GET /key before and after). One row per service, solution
    // and medium; `frames` is REAL because a per-frame cost learnt from a clip may be fractional.
    sql: `
      CREATE TABLE learnt_costs (
        service_url TEXT NOT NULL,
        solution TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('image', 'videoFrame')),
        frames REAL NOT NULL CHECK (frames >= 0),
        learnt_at INTEGER NOT NULL,
        PRIMARY KEY (service_url, solution, kind)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 8,
    name: 'accepted-by-rule',
    // Boxes an auto-accept accepted carry the rule that did it, so people can tell them from their
    // own. One batch per auto-accept is one undoable step: a row the batch created is deleted on
    // undo, a row it updated gets back its pending state and its earlier `updated_at`. A person's
    // later write of the row clears all three columns: the box is then the person's.
    sql: `
      CREATE TABLE rule_batches (
        id INTEGER PRIMARY KEY,
        solution TEXT NOT NULL,
        target REAL NOT NULL,
        boxes INTEGER NOT NULL,
        files INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        undone_at INTEGER
      ) STRICT;
      ALTER TABLE corrections ADD COLUMN rule TEXT;
      ALTER TABLE corrections ADD COLUMN rule_batch INTEGER REFERENCES rule_batches(id);
      ALTER TABLE corrections ADD COLUMN rule_prior_at INTEGER;
      CREATE INDEX corrections_by_rule_batch ON corrections(rule_batch) WHERE rule_batch IS NOT NULL;
    `,
  },
  {
    version: 9,
    name: 'review-priority',
    // Expected corrections per file (electron/core/review/review-priority.ts), cached so the
    // library sorts 100k files by it in SQL. `review_priority_state` records what the scores were
    // computed from; when that changes they are computed again (review-priority-repo.ts).
    sql: `
      CREATE TABLE review_priority (
        solution TEXT NOT NULL,
        media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
        score REAL NOT NULL,
        PRIMARY KEY (solution, media_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX review_priority_by_media ON review_priority(media_id);
      CREATE TABLE review_priority_state (
        solution TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        computed_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
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
];
