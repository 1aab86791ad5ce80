/**
 * Auto-accept (issue 13 §3): which of a file's boxes a rule accepts. Pure; the store writes the
 * choice as one batch (rule-batches-repo.ts) and the application layer finds the thresholds.
 *
 * A box qualifies when it is the model's own, unchanged and still pending, and its score is at or
 * above its class's threshold (a detection the service gave no score never is). A box a person
 * touched (edited, accepted, rejected, deleted) or drew is the person's, and a class without a
 * threshold gets nothing.
 */
import type { MergedBox } from './merge-corrections.js';

export interface AcceptRule {
  /** The precision the thresholds were proposed for (0–1). */
  target: number;
  /** Per model label, the lowest score accepted. */
  thresholds: ReadonlyMap<string, number>;
}

/** How an accepted box names its rule, short enough for a tooltip and a list row. */
export function ruleText(label: string, threshold: number, target: number): string {
  const pct = Math.round(target * 1000) / 10;
  return `${label} score ≥ ${threshold.toFixed(3)} (target precision ${pct} %)`;
}

export function boxesToAutoAccept(boxes: readonly MergedBox[], rule: AcceptRule): MergedBox[] {
  return boxes.filter((b) => {
    if (b.deleted || b.review !== 'pending' || b.origin !== 'model') return false;
    if (b.detectionId === null || b.model === null) return false;
    const threshold = rule.thresholds.get(b.model.label);
    // No score is not "above the threshold": a scoreless detection waits for a person, and a box
    // an import made the person's (shown without a score) is never the rule's.
    if (b.score === null) return false;
    return threshold !== undefined && b.model.score !== null && b.model.score >= threshold;
  });
}
