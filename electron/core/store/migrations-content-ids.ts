/**
 * Migration 26 (issue 24): the corrections' content index keyed by a content number, not by the
 * content's hash. Hashes are random: an import, which writes its files in the library's order,
 * put each file's rows on a page of that index at random, so every commit wrote hundreds of
 * scattered pages (an import of 100k files wrote 3 GB for 0.8 GB of rows). `contents` numbers each
 * hash once, when a file is first hashed, so numbers follow the library's order and an import
 * appends to the index instead. A row keeps its hash: the team outbox's triggers, the hub's wire
 * and every reader of the column stay as they were; only lookups by content go through the number
 * (`contentIdOf` in content-numbers.ts). The table is rebuilt (SQLite adds no NOT NULL column to
 * rows that exist), with every row and id as before; its team triggers go with the old table and
 * are installed again on this open (team-triggers.ts).
 */
import { wireFrameIndex } from './keyframe-column.js';
import {
  CORRECTIONS_V25_CHECKS,
  CORRECTIONS_V25_COLUMNS,
  CORRECTIONS_V25_NAMES,
} from './migrations-review-check.js';

// No conflict clause inside the triggers: an outer `INSERT OR REPLACE` would impose its own and
// renumber the content under its corrections.
const NUMBER_HASH = `
  BEGIN
    INSERT INTO contents (hash) SELECT NEW.content_hash
      WHERE NOT EXISTS (SELECT 1 FROM contents WHERE hash = NEW.content_hash);
  END`;

const OLD_ROW = CORRECTIONS_V25_NAMES.split(',')
  .map((name) => `c.${name.trim()}`)
  .join(', ');

export const CONTENT_IDS_SQL = `
  CREATE TABLE contents (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE
  ) STRICT;
  -- The library's order first (a scan hashes files in it), then contents only corrections know.
  INSERT INTO contents (hash)
    SELECT content_hash FROM media WHERE content_hash IS NOT NULL
    GROUP BY content_hash ORDER BY min(id);
  INSERT INTO contents (hash)
    SELECT content_hash FROM corrections WHERE content_hash NOT IN (SELECT hash FROM contents)
    GROUP BY content_hash ORDER BY min(id);
  CREATE TRIGGER media_content_numbered AFTER INSERT ON media
    WHEN NEW.content_hash IS NOT NULL ${NUMBER_HASH};
  CREATE TRIGGER media_content_renumbered AFTER UPDATE OF content_hash ON media
    WHEN NEW.content_hash IS NOT NULL AND NEW.content_hash IS NOT OLD.content_hash
    ${NUMBER_HASH};

  CREATE TABLE corrections_by_number (
${CORRECTIONS_V25_COLUMNS},
    -- The content's number (contents.id): what the content index is keyed on.
    content_id INTEGER NOT NULL REFERENCES contents(id),
${CORRECTIONS_V25_CHECKS}
  ) STRICT;
  INSERT INTO corrections_by_number (${CORRECTIONS_V25_NAMES}, content_id)
    SELECT ${OLD_ROW}, n.id
    FROM corrections c JOIN contents n ON n.hash = c.content_hash ORDER BY c.id;
  DROP TABLE corrections;
  ALTER TABLE corrections_by_number RENAME TO corrections;
  CREATE INDEX corrections_by_rule_batch ON corrections(rule_batch) WHERE rule_batch IS NOT NULL;
  CREATE INDEX corrections_by_content ON corrections(content_id, solution, ${wireFrameIndex()});
`;
