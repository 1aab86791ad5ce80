/** A change as migration 10's `team_changes` stores it, read back. */
import type { TeamBoxState, TeamChange } from './team-types.js';

export interface ChangeRow {
  id: string;
  box: string;
  content_hash: string;
  solution: string;
  parents: string;
  state: string | null;
  at: number;
}

export const toChange = (r: ChangeRow): TeamChange => ({
  id: r.id,
  box: r.box,
  contentHash: r.content_hash,
  solution: r.solution,
  parents: JSON.parse(r.parents) as string[],
  state: r.state === null ? null : (JSON.parse(r.state) as TeamBoxState),
  at: r.at,
});

export const CHANGE_COLUMNS = 'id, box, content_hash, solution, parents, state, at';
