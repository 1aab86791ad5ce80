/** Auto-accept batches (migration 8), as the rest of core sees them. */
import type { BoxXYWH } from './row-types.js';

/** One content's share of an auto-accept batch: the model boxes to accept and the rule of each. */
export interface RuleAcceptance {
  contentHash: string;
  boxes: readonly {
    /** The pending correction to update; null: a plain model box (a row is created). */
    correctionId: number | null;
    frameIndex: number;
    timeMs: number | null;
    model: { label: string; score: number | null; bbox: BoxXYWH };
    rule: string;
  }[];
}

export interface RuleBatchesApi {
  /** Contents of the solution no reviewed file shows, in path order, with their file counts. */
  unreviewed(solution: string): { resultId: number; contentHash: string; files: number }[];
  /** Accepts the boxes by rule in ONE transaction; returns the batch id. */
  apply(
    solution: string,
    target: number,
    files: number,
    contents: readonly RuleAcceptance[],
  ): number;
  /** Undoes a batch; returns how many boxes went back, null if it is unknown or undone. */
  undo(batchId: number): number | null;
  /** The newest batch of the solution not undone yet. */
  latest(solution: string): { id: number; boxes: number; files: number } | undefined;
}
