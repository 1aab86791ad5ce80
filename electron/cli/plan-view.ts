import type { KeyView, RunPlan } from '../application/labelling-session.js';
import type { TeamPlan } from '../application/team-plan.js';

/** A plan of a team project says what the team already holds; a lone library's does not. */
type AnyPlan = RunPlan & Partial<Pick<TeamPlan, 'teamHas' | 'teamAway'>>;
import { terminalText } from './terminal-text.js';

/** `key` is undefined when there is no key to ask (plan needs only the public catalog). */
export function planJson(plan: AnyPlan, key: KeyView | undefined) {
  return {
    solution: plan.solution.id,
    found:
      plan.items.length +
      plan.reused.length +
      plan.duplicates.length +
      plan.refused.length +
      plan.uncertain.length +
      (plan.inRun ?? 0) +
      (plan.teamHas?.length ?? 0),
    toLabel: { images: plan.images, clips: plan.clips, frames: plan.frames },
    /** Files whose cost is unknown until the first of them is sent (not in `frames`). */
    costUnknown: plan.costUnknown,
    alreadyLabelled: plan.reused.length,
    // Only while another process runs on the library (it holds the lock): the files that run
    // has sent or is sending, counted by it and not here.
    ...(plan.inRun ? { inRun: plan.inRun } : {}),
    // In a team project only: answered by another member (taken from the hub, free), and why the
    // hub could not be asked.
    ...(plan.teamHas ? { teamHas: plan.teamHas.length, teamAway: plan.teamAway ?? null } : {}),
    duplicates: plan.duplicates.length,
    refused: plan.refused.map((r) => ({ path: r.media.path, code: r.code, message: r.message })),
    uncertain: plan.uncertain.map((r) => ({
      path: r.media.path,
      code: r.code,
      message: r.message,
    })),
    key: key
      ? {
          audience: key.audience,
          remaining: key.remaining,
          hourRemaining: key.hourRemaining,
          expiresAt: key.expiresAt,
        }
      : null,
    fits: key ? plan.frames <= key.remaining : null,
    fitsThisHour: key ? plan.frames <= key.hourRemaining : null,
  };
}

export function planText(plan: AnyPlan, key: KeyView | undefined): string {
  const j = planJson(plan, key);
  const lines = [
    `${j.found} media found · ${j.alreadyLabelled} already labelled${plan.teamHas ? ` · ${j.teamHas} answered by the team (free)` : ''} · ${j.duplicates} duplicates · ${j.refused.length} refused · ${j.uncertain.length} uncertain`,
    `To label with ${plan.solution.id}: ${plan.images} images and ${plan.clips} clips, ${costText(plan)}`,
    key
      ? `The key has ${key.remaining} frames left, ${key.hourRemaining} this hour${j.fits ? (j.fitsThisHour ? '' : ' — the run will pause for the hour') : ' — not enough for all of it'}`
      : 'No key for this service, so the frames left are not shown (`labeldesk login` stores one).',
  ];
  if (j.inRun)
    lines.push(
      `${j.inRun} ${j.inRun === 1 ? 'file' : 'files'} sent by a run going now: counted by that run, not here.`,
    );
  if (j.teamAway)
    lines.push(
      `The team hub could not be asked (${j.teamAway}): files another member labelled are counted as to pay.`,
    );
  for (const r of j.refused) lines.push(`  refused ${r.path} — ${r.code}: ${r.message}`);
  return lines.map(terminalText).join('\n');
}

/** "about 12 frames", or what is unknown and why (the service does not publish the cost). */
export function costText(plan: RunPlan): string {
  if (plan.costUnknown === 0) return `about ${plan.frames} frames`;
  const known =
    plan.frames > 0 ? `about ${plan.frames} frames for the files whose cost is known; ` : '';
  return `${known}cost unknown until the first file (the service does not publish it; LabelDesk learns it from the first file sent)`;
}
