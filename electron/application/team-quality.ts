/**
 * A team project's quality for the CLI and the app's Team screen (the lead's view): the overlap
 * share, honeypots, settling overlap files, disagreements and the per-member report, over the
 * library of this app context and the OS keychain.
 */
import {
  addTeamHoneypots,
  setTeamOverlap,
  settleTeamFiles,
  teamDisagreements,
  teamQualityFiles,
  teamQualitySettings,
  teamReport,
} from '../core/team/team-quality.js';
import type { AppContext } from './app-context.js';
import { depsOf } from './team-projects.js';
import { UsageError } from './usage-error.js';

export type { TeamReport, MemberReport, Disagreement } from '../core/team/team-report-read.js';
export type { SettleOutcome } from '../core/team/team-quality.js';

/** "10%", "10 %" or "0.1" as a share of 0 to 1. */
export function parseShare(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  const share = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!(share >= 0 && share <= 1)) {
    throw new UsageError(`"${text}" is no share of the files: give 0% to 100% (or 0 to 1).`);
  }
  return share;
}

export const teamQuality = (app: AppContext) => {
  const deps = depsOf(app);
  return {
    settings: () => teamQualitySettings(deps),
    setOverlap: (share: number) => setTeamOverlap(deps, share),
    addHoneypots: (files: readonly string[]) => addTeamHoneypots(deps, files),
    files: () => teamQualityFiles(deps),
    report: () => teamReport(deps),
    disagreements: () => teamDisagreements(deps),
    settle: (which: { files: readonly string[] } | 'all', keep: string) =>
      settleTeamFiles(deps, which, keep),
  };
};
