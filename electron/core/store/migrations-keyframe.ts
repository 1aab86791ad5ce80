/**
 * Migration 19 (issue 22): a keyframe is a field of its correction, not a negative frame index.
 * Existing rows are rewritten; the team outbox triggers are recreated so that a change still
 * carries (and a box key still holds) the frame index as before, `offSampleIndex(clip frame)` for
 * a keyframe: desktops of either version and the hub keep reading each other's changes.
 */
import { wireFrameIndex } from './keyframe-column.js';
import { TEAM_STATE_WITH_IMPORTS_SQL } from './migrations-team-state.js';

export const KEYFRAME_FIELD_SQL = `
  ALTER TABLE corrections ADD COLUMN keyframe INTEGER NOT NULL DEFAULT 0
    CHECK (keyframe IN (0, 1));
  -- The rewrite changes no box as the team sees it: no change goes out for it.
  INSERT OR IGNORE INTO team_applying (id) VALUES (1);
  UPDATE corrections SET frame_index = -frame_index - 1, keyframe = 1 WHERE frame_index < 0;
  DELETE FROM team_applying;
  ${TEAM_STATE_WITH_IMPORTS_SQL.replaceAll('NEW.frame_index', wireFrameIndex('NEW.'))}
  -- Reads order by the frame index as before (keyframes first), through this index.
  DROP INDEX corrections_by_content;
  CREATE INDEX corrections_by_content ON corrections(content_hash, solution, ${wireFrameIndex()});
`;
