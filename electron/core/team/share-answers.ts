/**
 * The model's answers shared through the hub: each desktop offers the answers it paid for (for
 * the project's files), and takes the team's answers for files it has none for, storing them as
 * results, which a run then reuses like any stored result: nothing is sent, nothing is spent.
 */
import type { TeamAnswersPort } from '../store/store-ports.js';
import type { ResultRow } from '../store/row-types.js';
import type { HubClient } from './hub-client.js';
import { answerKey, type HubAnswer, type HubFile } from './hub-types.js';

const PAGE = 2000;

export async function shareAnswers(
  store: TeamAnswersPort,
  hub: Pick<HubClient, 'answerKeys' | 'addAnswers' | 'answers'>,
  files: readonly HubFile[],
): Promise<{ offered: number; taken: number }> {
  const hashes = [...new Set(files.map((f) => f.contentHash))];
  let offered = 0;
  let taken = 0;
  for (let i = 0; i < hashes.length; i += PAGE) {
    const page = hashes.slice(i, i + PAGE);
    const inHub = await hub.answerKeys(page);
    const local = store.team.resultsOf(page);
    const have = new Set(local.map((r) => answerKey(r.contentHash, r.solution)));
    const offers = hubAnswersOf(
      store,
      local.filter((r) => !inHub.has(answerKey(r.contentHash, r.solution))),
    );
    await hub.addAnswers(offers);
    offered += offers.length;
    const missing = [
      ...new Set([...inHub].filter((k) => !have.has(k)).map((k) => k.slice(0, k.indexOf(' ')))),
    ];
    if (missing.length === 0) continue;
    const takes = new Map<string, HubAnswer>();
    for (const a of await hub.answers(missing)) {
      const key = answerKey(a.contentHash, a.solution);
      // The first answer stored for a content and solution is the team's (any later one is a
      // second payer's, kept in the hub for the accounts).
      if (!have.has(key) && !takes.has(key)) takes.set(key, a);
    }
    if (takes.size === 0) continue;
    storeHubAnswers(store, [...takes.values()]);
    taken += takes.size;
  }
  return { offered, taken };
}

/**
 * What each clip's answer cost, as this desktop recorded it: the frames its key was charged for
 * the file's latest finished submission (a clip's has a job). A photo's answer stays one frame
 * (null), as the report counts it, and so does an answer this desktop never paid for.
 */
function chargedFrames(store: Pick<TeamAnswersPort, 'submissions'>, results: readonly ResultRow[]) {
  const out = new Map<string, number>();
  for (const solution of new Set(results.map((r) => r.solution))) {
    const hashes = results.filter((r) => r.solution === solution).map((r) => r.contentHash);
    for (const [hash, sub] of store.submissions.latestForMany(hashes, solution)) {
      if (sub.state === 'done' && sub.jobId !== null && sub.framesSpent !== null)
        out.set(answerKey(hash, solution), sub.framesSpent);
    }
  }
  return out;
}

/** Stored results as the hub keeps them (boxes included, and the frames they cost). */
export function hubAnswersOf(
  store: Pick<TeamAnswersPort, 'submissions' | 'results'>,
  results: readonly ResultRow[],
): HubAnswer[] {
  const frames = chargedFrames(store, results);
  return results.map((r) => ({
    contentHash: r.contentHash,
    solution: r.solution,
    service: r.serviceUrl,
    frames: frames.get(answerKey(r.contentHash, r.solution)) ?? null,
    answer: {
      analysedWidth: r.analysedWidth,
      analysedHeight: r.analysedHeight,
      model: r.model,
      detections: store.results.detections(r.id).map((d) => ({
        frameIndex: d.frameIndex,
        timeMs: d.timeMs,
        label: d.label,
        classId: d.classId,
        score: d.score,
        bbox: d.bbox,
      })),
    },
  }));
}

/** The team's answers stored here as results: later runs reuse them like any stored result. */
export function storeHubAnswers(
  store: Pick<TeamAnswersPort, 'results'>,
  answers: readonly HubAnswer[],
): void {
  if (answers.length === 0) return;
  store.results.saveMany(
    answers.map((a) => ({
      contentHash: a.contentHash,
      solution: a.solution,
      serviceUrl: a.service,
      analysedWidth: a.answer.analysedWidth,
      analysedHeight: a.answer.analysedHeight,
      model: a.answer.model,
      detections: a.answer.detections,
    })),
  );
}
