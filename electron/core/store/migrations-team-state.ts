/**
 * The team change state of a box with what an import set on it (issue 25): migration 10's state
 * lacks the columns later migrations added to corrections, so a teammate pulling an imported box
 * saw the model's score on it and lost its crowd flag. Every key of migration 10 stays as it was
 * (the hub and other desktops parse states); a state without the new keys is 0/null.
 */
import { TEAM_BOX_STATE, teamCorrectionSaved } from './migrations-team.js';

/** Migration 10's state, plus `personMade` (migration 16), `crowd` and `coco` (migration 14). */
const TEAM_BOX_STATE_WITH_IMPORTS = `json_set(${TEAM_BOX_STATE},
  '$.personMade', NEW.person_made, '$.crowd', NEW.crowd, '$.coco', NEW.coco)`;

/** Recreates the outbox triggers of saved corrections with that state (the delete's is unchanged). */
export const TEAM_STATE_WITH_IMPORTS_SQL = `
  DROP TRIGGER team_correction_inserted;
  DROP TRIGGER team_correction_updated;
  ${teamCorrectionSaved('INSERT', 'team_correction_inserted', TEAM_BOX_STATE_WITH_IMPORTS)}
  ${teamCorrectionSaved('UPDATE', 'team_correction_updated', TEAM_BOX_STATE_WITH_IMPORTS)}
`;

/**
 * Migration 20 (issue 25): boxes an import set (the person's box, a crowd region, kept COCO
 * fields) before migration 17 went to the team without it, and reached it only on their next
 * edit. Touching each such correction once fires the outbox trigger (migration 17's state, as
 * migration 19 keeps it): a change based on the
 * box's head, carrying what the import set, pushed at the next sync. Only where this desktop's
 * own change without those keys is the box's one head (a box in conflict is left to a person,
 * another member's version is theirs to publish), and only in a project.
 */
export const TEAM_REPUBLISH_IMPORTS_SQL = `
  UPDATE corrections SET updated_at = updated_at
  WHERE (person_made = 1 OR crowd = 1 OR coco IS NOT NULL)
    AND EXISTS (SELECT 1 FROM team_project)
    AND id IN (SELECT b.correction_id FROM team_boxes b JOIN team_changes c ON c.id = b.shown
      WHERE json_array_length(b.heads) = 1 AND c.own = 1 AND c.state IS NOT NULL
        AND json_type(c.state, '$.personMade') IS NULL);
`;
