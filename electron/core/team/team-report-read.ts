/**
 * `team report` and `team disagreements` (README "Working as a team", Overlap and honeypots): what
 * the hub holds, read by a lead, turned into each member's versions of the overlap files and
 * honeypots they reviewed, agreement per pair and class, honeypot scores per member, and the
 * model's quality on the team's reviewed set. Only the overlap files, honeypots and settled files
 * are read whole; counts are the hub's, and the reviewed set is read a page at a time (its
 * answers and changes dropped once the page is turned into evaluation images).
 */
import type { HubAnswer, HubClient } from './hub-client.js';
import {
  changesOf,
  honeypots,
  memberActivity,
  qualityFiles,
  qualitySettings,
  type LoggedChange,
  type MemberActivity,
  type QualityFile,
} from './hub-quality.js';
import { boxVersion } from './box-versions.js';
import { exposedHoneypots } from './hub-quality-exposure.js';
import { reviewedAmong, reviewedCounts, reviewedPage } from './hub-report-reads.js';
import { versionOf, type AnswersBySolution, type TruthBoxOf } from './member-versions.js';
import type { EvalImage } from '../evaluation/evaluation-types.js';
import { teamAgreement, type FileAgreement, type PairAgreement } from './team-agreement.js';
import {
  honeypotScores,
  modelImages,
  modelQualityOf,
  type ModelQuality,
  type Scores,
} from './team-report.js';

/** Reviewed files read per page for the model's measure. */
export const REPORT_PAGE = 1000;

export interface MemberReport extends MemberActivity {
  filesReviewed: number;
  /** Over every pair this member is in (overlap files). */
  agreement: { f1: number | null; meanIou: number | null; files: number };
  /**
   * Over the honeypots whose truth was hidden from this member all along; `seen`: the ones they
   * may have pulled before the file was marked (hub-quality-exposure.ts), left out of the scores.
   */
  honeypots: Scores & { files: number; seen: number };
}

export interface TeamReport {
  overlapShare: number;
  overlapFiles: number;
  settledFiles: number;
  honeypotFiles: number;
  members: MemberReport[];
  pairs: PairAgreement[];
  model: ModelQuality;
}

export interface Disagreement extends FileAgreement {
  relPath: string;
}

interface Read {
  files: QualityFile[];
  truth: Map<string, TruthBoxOf[]>;
  reviewed: Map<string, Set<string>>;
  changes: Map<string, LoggedChange[]>;
  answers: Map<string, Map<string, HubAnswer['answer']>>;
  overlapShare: number;
  /** Honeypot → members who may have seen its truth (not blind for them). */
  exposed: Map<string, Set<string>>;
}

function byContent<T extends { contentHash: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(r.contentHash) ?? [];
    list.push(r);
    out.set(r.contentHash, list);
  }
  return out;
}

type Answers = Map<string, Map<string, HubAnswer['answer']>>;

/** The hub's answers of these contents, per content and solution. */
async function answersOf(hub: HubClient, hashes: readonly string[]): Promise<Answers> {
  const answers: Answers = new Map();
  // Oldest first: the first answer per content and solution is the team's.
  for (const a of await hub.answers(hashes)) {
    const of = answers.get(a.contentHash) ?? new Map<string, HubAnswer['answer']>();
    if (!of.has(a.solution)) of.set(a.solution, a.answer);
    answers.set(a.contentHash, of);
  }
  return answers;
}

/** The overlap files, honeypots and settled files (a lead's read: the honeypots are theirs). */
async function readQuality(hub: HubClient): Promise<Read> {
  const [files, hp, settings] = [
    await qualityFiles(hub),
    await honeypots(hub),
    await qualitySettings(hub),
  ];
  const hashes = files.map((f) => f.contentHash);
  return {
    files,
    truth: new Map(hp.map((h) => [h.contentHash, h.truth])),
    reviewed: await reviewedAmong(hub, hashes),
    changes: byContent(await changesOf(hub, hashes)),
    answers: await answersOf(hub, hashes),
    overlapShare: settings.overlapShare,
    exposed: await exposedHoneypots(hub),
  };
}

const none: AnswersBySolution = new Map();

/** Each member's version of a content, for the members who marked it reviewed. */
function versions(read: Read, contentHash: string): Map<string, TruthBoxOf[]> {
  const out = new Map<string, TruthBoxOf[]>();
  const changes = read.changes.get(contentHash) ?? [];
  for (const [member, files] of read.reviewed) {
    if (!files.has(contentHash)) continue;
    out.set(
      member,
      versionOf(
        read.answers.get(contentHash) ?? none,
        changes.filter((c) => c.member === member),
      ),
    );
  }
  return out;
}

function agreementOf(read: Read) {
  const overlap = read.files
    .filter((f) => f.overlap)
    .map((f) => ({ file: f, versions: versions(read, f.contentHash) }))
    .filter((x) => x.versions.size >= 2);
  return {
    ...teamAgreement(
      overlap.map((x) => ({ contentHash: x.file.contentHash, versions: x.versions })),
    ),
    overlap,
  };
}

/** The overlap files two members disagree on and nobody settled yet. */
export async function readDisagreements(hub: HubClient): Promise<Disagreement[]> {
  const read = await readQuality(hub);
  const a = agreementOf(read);
  const open = new Map(
    a.overlap.filter((x) => !x.file.settled).map((x) => [x.file.contentHash, x]),
  );
  return a.files
    .filter((f) => open.has(f.contentHash) && f.unmatched.length > 0)
    .map((f) => ({ ...f, relPath: open.get(f.contentHash)?.file.relPath ?? '' }));
}

/** The labels the project holds for a content: its truth, else each box at its shown version. */
function projectLabels(
  truth: TruthBoxOf[] | undefined,
  changes: readonly LoggedChange[],
  answers: AnswersBySolution,
): TruthBoxOf[] {
  if (truth) return truth;
  const byBox = new Map<string, LoggedChange[]>();
  for (const c of changes) {
    const list = byBox.get(c.box) ?? [];
    list.push(c);
    byBox.set(c.box, list);
  }
  const shown = [...byBox.values()].map((list) => {
    const id = boxVersion(list).shown.id;
    return list.find((c) => c.id === id) as LoggedChange;
  });
  return versionOf(answers, shown);
}

/**
 * The model against the project's labels on every reviewed file but the unsettled overlap ones
 * (no project labels yet), read a page at a time.
 */
async function modelOverReviewed(
  hub: HubClient,
  truth: ReadonlyMap<string, TruthBoxOf[]>,
  blindOpen: ReadonlySet<string>,
): Promise<ModelQuality> {
  const images: EvalImage[] = [];
  let files = 0;
  for (let after: string | null = null; ;) {
    const page = await reviewedPage(hub, after, REPORT_PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1] ?? null;
    const measured = page.filter((h) => !blindOpen.has(h));
    const answers = await answersOf(hub, measured);
    const changes = byContent(await changesOf(hub, measured));
    for (const h of measured) {
      const of = answers.get(h) ?? none;
      images.push(
        ...modelImages(files++, of, projectLabels(truth.get(h), changes.get(h) ?? [], of)),
      );
    }
  }
  return modelQualityOf(images, files);
}

function pairMean(pairs: readonly PairAgreement[], member: string): MemberReport['agreement'] {
  let [a, b, matched, iouSum, files] = [0, 0, 0, 0, 0];
  for (const p of pairs) {
    if (!p.members.includes(member)) continue;
    a += p.overall.a;
    b += p.overall.b;
    matched += p.overall.matched;
    iouSum += (p.overall.meanIou ?? 0) * p.overall.matched;
    files += p.files;
  }
  return {
    f1: a + b > 0 ? (2 * matched) / (a + b) : null,
    meanIou: matched > 0 ? iouSum / matched : null,
    files,
  };
}

export async function readTeamReport(hub: HubClient): Promise<TeamReport> {
  const read = await readQuality(hub);
  const agreement = agreementOf(read);
  const activity = await memberActivity(hub);
  const counts = await reviewedCounts(hub);
  const blindOpen = new Set(
    read.files.filter((f) => f.overlap && !f.settled).map((f) => f.contentHash),
  );
  const members = activity.map((m): MemberReport => {
    const reviewedPots = [...(read.reviewed.get(m.member) ?? [])].filter((h) => read.truth.has(h));
    const pots = reviewedPots.filter((h) => !read.exposed.get(h)?.has(m.member));
    return {
      ...m,
      filesReviewed: counts.get(m.member) ?? 0,
      agreement: pairMean(agreement.pairs, m.member),
      honeypots: {
        ...honeypotScores(
          pots.map((h) => ({
            truth: read.truth.get(h) ?? [],
            version: versions(read, h).get(m.member) ?? [],
          })),
        ),
        seen: reviewedPots.length - pots.length,
      },
    };
  });
  return {
    overlapShare: read.overlapShare,
    overlapFiles: read.files.filter((f) => f.overlap).length,
    settledFiles: read.files.filter((f) => f.settled).length,
    honeypotFiles: read.truth.size,
    members,
    pairs: agreement.pairs,
    model: await modelOverReviewed(hub, read.truth, blindOpen),
  };
}
