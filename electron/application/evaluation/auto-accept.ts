/**
 * The use-case behind `quality.autoAccept` and `labeldesk auto-accept`: thresholds from the
 * reviewed files (the evaluation's calibration at a target precision), then, on every file not
 * reviewed yet, the model's pending boxes at or above their class's threshold, accepted by rule
 * in one batch (one undoable step). Without `apply` it only counts, for the confirmation.
 */
import { boxesToAutoAccept, ruleText, type AcceptRule } from '../../core/review/auto-accept.js';
import { mergeCorrections } from '../../core/review/merge-corrections.js';
import type {
  CorrectionsReader,
  ResultsReader,
  RuleBatchesPort,
  SettingsReader,
  StoreFile,
  TransactionPort,
} from '../../core/store/store-ports.js';
import type { RuleAcceptance } from '../../core/store/store-types.js';

/** What an auto-accept reads and writes of the library. */
export type AutoAcceptStore = StoreFile &
  SettingsReader &
  TransactionPort &
  RuleBatchesPort &
  ResultsReader &
  CorrectionsReader;
import type { AutoAcceptResult } from '../../shared/contract/quality-schemas.js';
import { storedMinScore } from '../library-min-score.js';
import { evaluateLibrary } from './quality-handlers.js';

export interface AutoAcceptRequest {
  solution: string;
  targetPrecision: number;
  apply: boolean;
}

function planAcceptance(
  store: RuleBatchesPort & ResultsReader & CorrectionsReader,
  solution: string,
  rule: AcceptRule,
): { contents: RuleAcceptance[]; files: number } {
  const contents: RuleAcceptance[] = [];
  let files = 0;
  for (const c of store.ruleBatches.unreviewed(solution)) {
    const merged = mergeCorrections(
      store.results.detections(c.resultId),
      store.corrections.forContent(c.contentHash, solution),
    );
    const chosen = boxesToAutoAccept(merged, rule);
    if (chosen.length === 0) continue;
    files += c.files;
    contents.push({
      contentHash: c.contentHash,
      boxes: chosen.map((b) => {
        const model = b.model as NonNullable<typeof b.model>;
        const threshold = rule.thresholds.get(model.label) as number;
        return {
          correctionId: b.correctionId,
          frameIndex: b.frameIndex,
          timeMs: b.timeMs,
          model,
          rule: ruleText(model.label, threshold, rule.target),
        };
      }),
    });
  }
  return { contents, files };
}

export async function autoAccept(
  store: AutoAcceptStore,
  request: AutoAcceptRequest,
  nativeBinding?: string,
): Promise<AutoAcceptResult> {
  const report = await evaluateLibrary(
    store,
    { solution: request.solution, minScore: 0, targetPrecision: request.targetPrecision },
    nativeBinding,
  );
  // Calibrated on every box, but never accepting below the library's minimum score: a box a
  // person does not see (nor export) by default is not accepted on their behalf.
  const floor = storedMinScore(store);
  const classes = report.calibration
    .filter((c) => c.threshold !== null)
    .map((c) => ({ label: c.label, threshold: Math.max(c.threshold as number, floor) }));
  const rule: AcceptRule = {
    target: request.targetPrecision,
    thresholds: new Map(classes.map((c) => [c.label, c.threshold])),
  };
  // Planned and written in one transaction: nothing a person saves in between is overwritten.
  return store.transaction(() => {
    const { contents, files } = planAcceptance(store, request.solution, rule);
    const boxes = contents.reduce((n, c) => n + c.boxes.length, 0);
    const batchId =
      request.apply && boxes > 0
        ? store.ruleBatches.apply(request.solution, request.targetPrecision, files, contents)
        : null;
    const withheld = report.calibration.filter((c) => c.threshold === null);
    return { batchId, boxes, files, classes, withheld, targetPrecision: request.targetPrecision };
  });
}

/** Undoes one auto-accept; null when it is unknown or already undone. */
export function undoAutoAccept(store: RuleBatchesPort, batchId: number): { boxes: number } | null {
  const n = store.ruleBatches.undo(batchId);
  return n === null ? null : { boxes: n };
}
