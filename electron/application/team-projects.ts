/**
 * Team projects for the CLI (and later the app's Team screen): core's operations over the
 * library of this app context and the OS keychain. A malformed hub address or project name is a
 * usage error; a hub's refusal keeps its code (TeamError).
 */
import { KeytarStore } from '../core/credentials/index.js';
import { ProjectNameError } from '../core/team/hub-schema.js';
import { HubUrlError } from '../core/team/hub-url.js';
import {
  addTeamMember,
  createTeamProject,
  joinTeamProject,
  leaveTeamProject,
  removeTeamMember,
  resolveTeamConflicts,
  teamConflicts,
  syncTeamProject,
  watchTeamProject,
  teamStatus,
  type TeamDeps,
  type TeamLinkOptions,
  type TeamStatus,
} from '../core/team/team-project.js';
import type { AppContext } from './app-context.js';
import { UsageError } from './usage-error.js';

export { TeamError } from '../core/team/team-errors.js';
export type { TeamStatus };
export type { TeamConflict } from '../core/team/resolve-conflicts.js';

export const depsOf = (app: AppContext): TeamDeps => ({
  store: app.store,
  secrets: new KeytarStore(),
  now: Date.now,
});

async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof HubUrlError || err instanceof ProjectNameError) {
      throw new UsageError(err.message);
    }
    throw err;
  }
}

export type { TeamLinkOptions };

export const teamProjects = (app: AppContext) => {
  const deps = depsOf(app);
  return {
    create: (o: TeamLinkOptions) => asUsage(() => createTeamProject(deps, o)),
    join: (o: TeamLinkOptions) => asUsage(() => joinTeamProject(deps, o)),
    addMember: (role: string, as: 'lead' | 'annotator') => addTeamMember(deps, role, as),
    removeMember: (role: string) => removeTeamMember(deps, role),
    sync: () => syncTeamProject(deps),
    watch: (signal: AbortSignal, tell: Parameters<typeof watchTeamProject>[2]) =>
      watchTeamProject(deps, signal, tell),
    status: () => teamStatus(deps),
    leave: () => leaveTeamProject(deps),
    conflicts: (contentHash?: string) => teamConflicts(deps, contentHash),
    resolve: (which: { ids: readonly string[] } | 'all', keep: string) =>
      resolveTeamConflicts(deps, which, keep),
  };
};
