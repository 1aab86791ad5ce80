import type { RunPlan } from '../core/runner/plan-run.js';
import type { KeyView } from '../core/runner/service-port.js';
import { terminalText } from './terminal-text.js';

export function planJson(plan: RunPlan, key: KeyView) {
  return {
    solution: plan.solution.id,
    found:
      plan.items.length +
      plan.reused.length +
      plan.duplicates.length +
      plan.refused.length +
      plan.uncertain.length,
    toLabel: { images: plan.images, clips: plan.clips, frames: plan.frames },
    alreadyLabelled: plan.reused.length,
    duplicates: plan.duplicates.length,
    refused: plan.refused.map((r) => ({ path: r.media.path, code: r.code, message: r.message })),
    uncertain: plan.uncertain.map((r) => ({
      path: r.media.path,
      code: r.code,
      message: r.message,
    })),
    key: {
      audience: key.audience,
      remaining: key.remaining,
      hourRemaining: key.hourRemaining,
      expiresAt: key.expiresAt,
    },
    fits: plan.frames <= key.remaining,
    fitsThisHour: plan.frames <= key.hourRemaining,
  };
}

export function planText(plan: RunPlan, key: KeyView): string {
  const j = planJson(plan, key);
  const lines = [
    `${j.found} media found · ${j.alreadyLabelled} already labelled · ${j.duplicates} duplicates · ${j.refused.length} refused · ${j.uncertain.length} uncertain`,
    `To label with ${plan.solution.id}: ${plan.images} images and ${plan.clips} clips, about ${plan.frames} frames`,
    `The key has ${key.remaining} frames left, ${key.hourRemaining} this hour${j.fits ? (j.fitsThisHour ? '' : ' — the run will pause for the hour') : ' — not enough for all of it'}`,
  ];
  for (const r of j.refused) lines.push(`  refused ${r.path} — ${r.code}: ${r.message}`);
  return lines.map(terminalText).join('\n');
}
