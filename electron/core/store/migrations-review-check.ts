/**
 * Migration 25 (issue 24): the corrections' `review` CHECK as a CASE, not an IN list. SQLite
 * checks `x IN (three or more constants)` against a small table it builds once per run of a
 * statement, then probes for every row; the import's bulk insert runs a statement per 32 rows, so a
 * million imported boxes built 31k such tables. The CASE compares in place, as `detections` always
 * has (migration 1). Same rule, same rows: SQLite cannot change a CHECK in place, so the table is
 * rebuilt under its name with every row, id and index as before. Dropping the old table drops the
 * team outbox's triggers with it; a library in a project has them installed again on this open
 * (team-triggers.ts), and the copy sends nothing to the team.
 */
import { wireFrameIndex } from './keyframe-column.js';

export const CORRECTIONS_V25_NAMES = `id, content_hash, solution, frame_index, time_ms, anchor_label, anchor_score, anchor_x,
  anchor_y, anchor_w, anchor_h, label, x, y, w, h, review, deleted, updated_at, track, rule,
  rule_batch, rule_prior_at, crowd, coco, person_made, keyframe`;

/**
 * The corrections' columns as migration 25 wrote them (migration 26 adds one
 * column to them). Frozen text: both migrations' hashes depend on it.
 */
export const CORRECTIONS_V25_COLUMNS = `    id INTEGER PRIMARY KEY,
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
      CHECK (CASE review WHEN 'pending' THEN 1 WHEN 'accepted' THEN 1 WHEN 'rejected' THEN 1 ELSE 0 END),
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
    updated_at INTEGER NOT NULL,
    track INTEGER CHECK (track IS NULL OR track >= 1),
    rule TEXT,
    rule_batch INTEGER REFERENCES rule_batches(id),
    rule_prior_at INTEGER,
    crowd INTEGER NOT NULL DEFAULT 0 CHECK (crowd IN (0, 1)),
    coco TEXT,
    person_made INTEGER NOT NULL DEFAULT 0 CHECK (person_made IN (0, 1)),
    keyframe INTEGER NOT NULL DEFAULT 0 CHECK (keyframe IN (0, 1))`;

/** The corrections' table CHECKs as migration 25 wrote them (frozen text, as above). */
export const CORRECTIONS_V25_CHECKS = `    CHECK ((anchor_label IS NULL) = (anchor_x IS NULL)),
    CHECK (anchor_label IS NOT NULL OR (label IS NOT NULL AND x IS NOT NULL)),
    CHECK ((x IS NULL) = (y IS NULL) AND (x IS NULL) = (w IS NULL) AND (x IS NULL) = (h IS NULL))`;

export const REVIEW_CHECK_SQL = `
  CREATE TABLE corrections_case_checked (
${CORRECTIONS_V25_COLUMNS},
${CORRECTIONS_V25_CHECKS}
  ) STRICT;
  INSERT INTO corrections_case_checked (${CORRECTIONS_V25_NAMES})
    SELECT ${CORRECTIONS_V25_NAMES} FROM corrections ORDER BY id;
  DROP TABLE corrections;
  ALTER TABLE corrections_case_checked RENAME TO corrections;
  CREATE INDEX corrections_by_rule_batch ON corrections(rule_batch) WHERE rule_batch IS NOT NULL;
  CREATE INDEX corrections_by_content ON corrections(content_hash, solution, ${wireFrameIndex()});
`;
