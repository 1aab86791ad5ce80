/**
 * A member's work in a team project for the CLI and the app (core/team/team-work.ts): claim,
 * release, the lead's assignments and lease. A duration or count that makes no sense is a usage
 * error; a hub's refusal (an annotator doing the lead's part) keeps its code (TeamError).
 */
import {
  assignTeamWork,
  claimTeamWork,
  releaseTeamWork,
  takeBackTeamWork,
  teamLease,
  teamWork,
} from '../core/team/team-work.js';
import { LabelDeskError } from '../shared/contract/labeldesk-error.js';
import type { AppContext } from './app-context.js';
import { depsOf, TeamError } from './team-projects.js';
import { UsageError } from './usage-error.js';

export type { ClaimedFile, TeamClaim } from '../core/team/team-work.js';

/** How many files `team claim` and "Get work" take when not told. */
export const DEFAULT_CLAIM = 20;

/** `30m`, `1h`, `90s`, or bare minutes; between a second and a week. */
export function leaseDurationSeconds(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|min|h)?$/i.exec(text.trim());
  const unit = (m?.[2] ?? 'm').toLowerCase();
  const seconds = m ? Number(m[1]) * (unit === 's' ? 1 : unit === 'h' ? 3600 : 60) : NaN;
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 7 * 86_400) {
    throw new UsageError(
      `"${text}" is not a lease: give a duration such as 30m, 1h or 90s (1 second to 7 days).`,
    );
  }
  return Math.round(seconds);
}

export function claimCount(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CLAIM;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) {
    throw new UsageError(`"${text}" is not a number of files to claim (1 to 10000).`);
  }
  return n;
}

export const teamWorkOf = (app: AppContext) => {
  const deps = depsOf(app);
  return {
    claim: (count: number) => claimTeamWork(deps, count),
    mine: () => teamWork(deps),
    release: (which: readonly string[] | 'all') => releaseTeamWork(deps, which),
    assign: (member: string, folder: string, filter: readonly string[] = []) =>
      assignTeamWork(deps, member, folder, filter),
    takeBack: (member: string, folder: string | null) => takeBackTeamWork(deps, member, folder),
    lease: (seconds?: number) => teamLease(deps, seconds),
  };
};

/**
 * This desktop's claim, as the last "Get work" left it: the library ids Review next walks, best
 * first, in a team project (review-next.ts). Local, so pressing Enter never waits for the hub.
 */
export class OwnClaim {
  private ids: number[] = [];
  set(files: readonly { mediaId: number | null }[]): void {
    this.ids = files.flatMap((f) => (f.mediaId === null ? [] : [f.mediaId]));
  }
  list(): readonly number[] {
    return this.ids;
  }
}

/** `team.claim` ("Get work"): a hub's refusal keeps its code and sentence. */
export function teamWorkHandlers(app: AppContext, own: OwnClaim) {
  const work = teamWorkOf(app);
  return {
    'team.claim': async ({ count }: { count?: number | undefined }) => {
      try {
        const c = await work.claim(count ?? DEFAULT_CLAIM);
        own.set(c.holding);
        return c;
      } catch (err) {
        if (err instanceof TeamError) throw new LabelDeskError(err.code, err.message);
        throw err;
      }
    },
  };
}
