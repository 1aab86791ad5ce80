/**
 * `team report` and `team disagreements` (README "Working as a team", Overlap and honeypots): what
 * the hub holds, read once by a lead, turned into each member's versions of the overlap files and
 * honeypots they reviewed, agreement per pair and class, honeypot scores per member, and the
 * model's quality on the team's reviewed set.
 */
import type { HubAnswer, HubClient } from './hub-client.js';
import {
  changesOf,
  honeypots,
  memberActivity,
  qualityFiles,
  qualitySettings,
  reviewedBy,
  type LoggedChange,
  type MemberActivity,
  type QualityFile,
} from './hub-quality.js';
import { boxVersion } from './box-versions.js';
import { versionOf, type AnswersBySolution, type TruthBoxOf } from './member-versions.js';
import { teamAgreement, type FileAgreement, type PairAgreement } from './team-agreement.js';
import { honeypotScores, modelQuality, type ModelQuality, type Scores } from './team-report.js';

export interface MemberReport extends MemberActivity {
  filesReviewed: number;
  /** Over every pair this member is in (overlap files). */
  agreement: { f1: number | null; meanIou: number | null; files: number };
  honeypots: Scores & { files: number };
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

/** One read of what the report needs (a lead's: the honeypots are theirs to read). */
async function readQuality(hub: HubClient, wholeReviewedSet: boolean): Promise<Read> {
  const [files, hp, reviewed, settings] = [
    await qualityFiles(hub),
    await honeypots(hub),
    await reviewedBy(hub),
    await qualitySettings(hub),
  ];
  const wanted = new Set(files.map((f) => f.contentHash));
  if (wholeReviewedSet) for (const set of reviewed.values()) for (const h of set) wanted.add(h);
  const hashes = [...wanted];
  const answers = new Map<string, Map<string, HubAnswer['answer']>>();
  // Oldest first: the first answer per content and solution is the team's.
  for (const a of await hub.answers(hashes)) {
    const of = answers.get(a.contentHash) ?? new Map<string, HubAnswer['answer']>();
    if (!of.has(a.solution)) of.set(a.solution, a.answer);
    answers.set(a.contentHash, of);
  }
  return {
    files,
    truth: new Map(hp.map((h) => [h.contentHash, h.truth])),
    reviewed,
    changes: byContent(await changesOf(hub, hashes)),
    answers,
    overlapShare: settings.overlapShare,
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
  const read = await readQuality(hub, false);
  const a = agreementOf(read);
  const open = new Map(
    a.overlap.filter((x) => !x.file.settled).map((x) => [x.file.contentHash, x]),
  );
  return a.files
    .filter((f) => open.has(f.contentHash) && f.unmatched.length > 0)
    .map((f) => ({ ...f, relPath: open.get(f.contentHash)?.file.relPath ?? '' }));
}

/** The labels the project holds for a content: each box at its shown version. */
function projectLabels(read: Read, contentHash: string): TruthBoxOf[] {
  const truth = read.truth.get(contentHash);
  if (truth) return truth;
  const byBox = new Map<string, LoggedChange[]>();
  for (const c of read.changes.get(contentHash) ?? []) {
    const list = byBox.get(c.box) ?? [];
    list.push(c);
    byBox.set(c.box, list);
  }
  const shown = [...byBox.values()].map((list) => {
    const id = boxVersion(list).shown.id;
    return list.find((c) => c.id === id) as LoggedChange;
  });
  return versionOf(read.answers.get(contentHash) ?? none, shown);
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
  const read = await readQuality(hub, true);
  const agreement = agreementOf(read);
  const activity = await memberActivity(hub);
  const blindOpen = new Set(
    read.files.filter((f) => f.overlap && !f.settled).map((f) => f.contentHash),
  );
  const reviewedSet = new Set([...read.reviewed.values()].flatMap((s) => [...s]));
  const members = activity.map((m): MemberReport => {
    const mine = read.reviewed.get(m.member) ?? new Set<string>();
    const pots = [...mine].filter((h) => read.truth.has(h));
    return {
      ...m,
      filesReviewed: mine.size,
      agreement: pairMean(agreement.pairs, m.member),
      honeypots: honeypotScores(
        pots.map((h) => ({
          truth: read.truth.get(h) ?? [],
          version: versions(read, h).get(m.member) ?? [],
        })),
      ),
    };
  });
  // Unsettled overlap files have no project labels yet: left out of the model's measure.
  const measured = [...reviewedSet].filter((h) => !blindOpen.has(h));
  return {
    overlapShare: read.overlapShare,
    overlapFiles: read.files.filter((f) => f.overlap).length,
    settledFiles: read.files.filter((f) => f.settled).length,
    honeypotFiles: read.truth.size,
    members,
    pairs: agreement.pairs,
    model: modelQuality(
      measured.map((h) => ({
        answers: read.answers.get(h) ?? new Map(),
        labels: projectLabels(read, h),
      })),
    ),
  };
}
