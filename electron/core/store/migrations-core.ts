/** Library migrations 1–9: the single-user library (media, results, corrections, runs, review). Never edited (hashes). */
import type { Migration } from '../../node-lib/sqlite.js';

export const CORE_MIGRATIONS: readonly Migration[] = [
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
];
