/**
 * The lead's part of a team project's quality (README "Working as a team", Overlap and
 * honeypots): the overlap share, honeypots, settling overlap files, the report and the
 * disagreements. Every write is the database's to refuse (an annotator's role cannot make it).
 */
import { refreshWantedReviews } from './quality-wanted-reviews.js';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { TeamChange } from '../store/team-types.js';
import { applyOwn } from './apply-changes.js';
import { boxVersion } from './box-versions.js';
import type { HubClient } from './hub-client.js';
import {
  addHoneypots,
  assertLead,
  changesOf,
  ensureQuality,
  qualityFiles,
  qualitySettings,
  setHoneypotTruth,
  setOverlapShare,
  type LoggedChange,
  type QualityFile,
  type QualitySettings,
} from './hub-quality.js';
import { reviewedBy } from './hub-report-reads.js';
import { latestPerBox, versionOf } from './member-versions.js';
import { linkOf, syncTeamProject, withClient, type TeamDeps } from './team-project.js';
import { TeamError } from './team-errors.js';
import { pushOutbox, syncChanges } from './team-sync.js';
import { holdSettlements, recordPendingSettlements } from './pending-settlements.js';
import {
  readDisagreements,
  readTeamReport,
  type Disagreement,
  type TeamReport,
} from './team-report-read.js';

/** Runs `work` on the library's project, its hub upgraded to hold the quality tables. */
function onHub<T>(deps: TeamDeps, work: (hub: HubClient) => Promise<T>): Promise<T> {
  const l = linkOf(deps.store);
  return withClient(deps, l.hub, l.project, async (hub) => {
    if (!(await ensureQuality(hub))) {
      throw new TeamError(
        'hub_format',
        "This project's hub has no quality tables yet: its lead's next `team sync` adds them.",
      );
    }
    return work(hub);
  });
}

export const teamQualitySettings = (deps: TeamDeps): Promise<QualitySettings> =>
  onHub(deps, (hub) => qualitySettings(hub));

/** Sets the share of files two members review blind (0 to 1); a lead's. */
export const setTeamOverlap = (deps: TeamDeps, share: number): Promise<void> =>
  onHub(deps, async (hub) => {
    await setOverlapShare(hub, share);
    await refreshWantedReviews(hub);
  });

/** The content hash of each named file (a path in this library, or a content hash). */
function contentsOf(deps: TeamDeps, files: readonly string[]): string[] {
  return files.map((f) => {
    const hash = deps.store.media.byPath(resolve(f))?.contentHash;
    if (hash) return hash;
    if (/^[0-9a-f]{16,}$/.test(f)) return f;
    throw new TeamError('unknown_file', `${f} is no file of this library (nor a content hash).`);
  });
}

/**
 * Makes files honeypots: their known labels are this lead's version of them (imported ground
 * truth, or a settled file) as the hub holds it. Marked first, so the lead's version is hidden
 * from annotators from the moment it reaches the hub.
 */
export function addTeamHoneypots(
  deps: TeamDeps,
  files: readonly string[],
): Promise<{ added: { contentHash: string; boxes: number }[] }> {
  const hashes = contentsOf(deps, files);
  const me = linkOf(deps.store).member;
  return onHub(deps, async (hub) => {
    await addHoneypots(hub, hashes);
    await refreshWantedReviews(hub);
    // A whole sync: the lead's changes, and the model's answers the truth is laid over.
    await syncTeamProject(deps);
    const changes = await changesOf(hub, hashes);
    const answers = await hub.answers(hashes);
    const added = [];
    for (const h of hashes) {
      const bySolution = new Map<string, (typeof answers)[number]['answer']>();
      for (const a of answers) {
        if (a.contentHash === h && !bySolution.has(a.solution))
          bySolution.set(a.solution, a.answer);
      }
      const mine = changes.filter((c) => c.contentHash === h && c.member === me);
      const truth = versionOf(bySolution, mine);
      await setHoneypotTruth(hub, h, truth);
      added.push({ contentHash: h, boxes: truth.length });
    }
    return { added };
  });
}

export const teamQualityFiles = (deps: TeamDeps): Promise<QualityFile[]> =>
  onHub(deps, (hub) => qualityFiles(hub));

export const teamReport = (deps: TeamDeps): Promise<TeamReport> =>
  onHub(deps, (hub) => readTeamReport(hub));

export const teamDisagreements = (deps: TeamDeps): Promise<Disagreement[]> =>
  onHub(deps, (hub) => readDisagreements(hub));

/**
 * Per box of a file touched by anyone: one change of this lead, based on every version of the box
 * (so it settles any conflict), carrying the kept member's latest state of it (none: the model's
 * box, or no box if it was drawn by another). Annotators never saw each other's changes of the
 * file, so every box's state travels again, in the lead's changes.
 */
function settlingChanges(changes: readonly LoggedChange[], keep: string, at: number): TeamChange[] {
  const byBox = new Map<string, LoggedChange[]>();
  for (const c of changes) byBox.set(c.box, [...(byBox.get(c.box) ?? []), c]);
  const kept = latestPerBox(changes.filter((c) => c.member === keep));
  return [...byBox].map(([box, list]) => {
    const first = list[0] as LoggedChange;
    return {
      id: randomUUID(),
      box,
      contentHash: first.contentHash,
      solution: first.solution,
      parents: boxVersion(list).heads,
      state: kept.get(box)?.state ?? null,
      at,
    };
  });
}

export interface SettleOutcome {
  settled: { contentHash: string; relPath: string; kept: string; boxes: number }[];
  skipped: { file: string; reason: string }[];
  /** The hub went away before the settlement reached it: it goes out on the next sync. */
  waiting?: true;
}

/**
 * Settles overlap files by keeping one member's version: it becomes the project's labels on every
 * desktop, and the file is blind no more. `all`: every unsettled overlap file `keep` reviewed.
 */
export function settleTeamFiles(
  deps: TeamDeps,
  which: { files: readonly string[] } | 'all',
  keep: string,
): Promise<SettleOutcome> {
  const named = which === 'all' ? null : contentsOf(deps, which.files);
  let held = false;
  return onHub(deps, async (hub) => {
    // The database says first whether this role may settle: nothing is changed otherwise.
    await assertLead(hub);
    await syncChanges(deps.store, hub, deps.now);
    const files = new Map((await qualityFiles(hub)).map((f) => [f.contentHash, f]));
    const out: SettleOutcome = { settled: [], skipped: [] };
    const targets: QualityFile[] = [];
    const candidates =
      named ?? [...files.values()].filter((f) => f.overlap && !f.settled).map((f) => f.contentHash);
    const changes = await changesOf(hub, candidates);
    const reviewed = (await reviewedBy(hub)).get(keep) ?? new Set<string>();
    for (const h of candidates) {
      const f = files.get(h);
      const theirs =
        reviewed.has(h) || changes.some((c) => c.contentHash === h && c.member === keep);
      if (!f?.overlap) out.skipped.push({ file: f?.relPath ?? h, reason: 'not an overlap file' });
      else if (!theirs) {
        if (named) out.skipped.push({ file: f.relPath, reason: `${keep} did not review it` });
      } else targets.push(f);
    }
    const settling = targets.flatMap((f) =>
      settlingChanges(
        changes.filter((c) => c.contentHash === f.contentHash),
        keep,
        deps.now(),
      ),
    );
    applyOwn(deps.store, settling);
    // From here the settlement is this desktop's: if the hub goes away, it waits locally.
    const project = linkOf(deps.store).project;
    holdSettlements(
      deps.store,
      project,
      targets.map((f) => ({ contentHash: f.contentHash, kept: keep })),
    );
    held = true;
    for (const f of targets) {
      out.settled.push({
        contentHash: f.contentHash,
        relPath: f.relPath,
        kept: keep,
        boxes: settling.filter((c) => c.contentHash === f.contentHash).length,
      });
    }
    try {
      await pushOutbox(deps.store, hub);
      // A settled file is no longer blind: it wants one review again (held slots are kept).
      await recordPendingSettlements(deps.store, hub, project);
    } catch (err) {
      if (!(err instanceof TeamError && err.code === 'hub_unreachable')) throw err;
      out.waiting = true;
    }
    return out;
  }).catch((err: unknown) => {
    // Before anything was settled here: the members' versions are only in the hub.
    if (!held && err instanceof TeamError && err.code === 'hub_unreachable') {
      throw new TeamError(
        'hub_unreachable',
        "Settling reads each member's version from the hub, which cannot be reached now: nothing was settled; settle again when it is back.",
      );
    }
    throw err;
  });
}
