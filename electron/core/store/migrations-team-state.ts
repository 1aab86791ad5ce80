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
