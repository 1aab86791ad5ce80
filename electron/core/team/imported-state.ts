/** What an import set on a box, as a team change's state carries it (migration 17). */
import type { TeamBoxState } from '../store/team-types.js';

/** The correction's import fields a state stands for; a state from before migration 17 has none. */
export const importedOf = (s: TeamBoxState) => ({
  personMade: s.personMade === 1,
  crowd: s.crowd === 1,
  coco: s.coco ?? null,
});
