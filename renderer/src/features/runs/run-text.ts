/** The Runs screen's sentences: the estimate, and what a run is doing or how it ended. */
import type { Estimate, RunState } from '@shared/contract/index.js';
import { clock, count, duration, plural } from '../../ui/format.js';

/** "About 120 frames: 100 images × 1 + 4 clips, 20 frames × 1 — 880 left, 400 this hour". */
export function estimateText(e: Estimate): string {
  const parts: string[] = [];
  if (e.images > 0) parts.push(`${plural(e.images, 'image')} × ${e.imageCost ?? '?'}`);
  if (e.clips > 0) {
    parts.push(
      `${plural(e.clips, 'clip')}, ${plural(e.clipFrames, 'frame')} × ${e.frameCost ?? '?'}`,
    );
  }
  const head = parts.length
    ? e.costUnknown > 0
      ? `Cost unknown until the first file: ${parts.join(' + ')}`
      : `About ${plural(e.frames, 'frame')}: ${parts.join(' + ')}`
    : `Nothing new to label: ${plural(e.frames, 'frame')}`;
  const credits =
    e.remaining === null
      ? ' — credits unknown'
      : ` — ${count(e.remaining)} left${e.hourRemaining === null ? '' : `, ${count(e.hourRemaining)} this hour`}`;
  return head + credits;
}

/** What else the estimate means for the user, one sentence each. */
export function estimateNotes(e: Estimate): string[] {
  const notes: string[] = [];
  if (e.costUnknown > 0) {
    notes.push(
      'The service does not publish this cost: LabelDesk sends one file first and learns it from the service’s own count.',
    );
  }
  if ((e.inRun ?? 0) > 0) {
    notes.push(
      `${plural(e.inRun ?? 0, 'file')} sent by the run going now: counted in its progress, not here.`,
    );
  }
  if (e.alreadyLabelled > 0) {
    notes.push(`${plural(e.alreadyLabelled, 'file')} already labelled: no frames spent on them.`);
  }
  if ((e.teamHas ?? 0) > 0) {
    notes.push(
      `${plural(e.teamHas ?? 0, 'file')} the team already answered: taken from the hub, no frames spent.`,
    );
  }
  if (e.teamAway) {
    notes.push(
      `The team hub could not be asked (${e.teamAway}): files a teammate may have answered are counted as to pay.`,
    );
  }
  if (e.uncertain > 0) {
    notes.push(
      `${plural(e.uncertain, 'file')} may already have been charged (uncertain): sent again only with Retry.`,
    );
  }
  if (e.pending > 0) {
    notes.push(`${plural(e.pending, 'file')} still being read: not counted yet.`);
  }
  if (e.refused > 0) notes.push(`${plural(e.refused, 'file')} cannot be sent (format or size).`);
  if (e.fits === false) {
    notes.push('More than the key has left: the run stops when the frames run out.');
  } else if (e.fitsThisHour === false) {
    notes.push('More than this hour allows: the run waits for the next hour to go on.');
  }
  return notes;
}

export const ACTIVE_PHASES: ReadonlySet<RunState['phase']> = new Set([
  'preparing',
  'running',
  'pausing',
  'paused',
  'waiting-for-credits',
  'cancelling',
]);

function tally(r: RunState): string {
  const parts = [`${count(r.labelled)} labelled`];
  if (r.reused > 0) parts.push(`${count(r.reused)} reused`);
  parts.push(`${count(r.failed)} failed`);
  if (r.uncertain > 0) parts.push(`${count(r.uncertain)} uncertain`);
  parts.push(`${plural(r.framesSpent, 'frame')} spent`);
  return parts.join(', ');
}

/** One line on the run: "Done: 100 labelled, 2 failed, 120 frames spent". */
export function runStatusText(r: RunState): string {
  const why = r.detail ? ` ${r.detail}` : '';
  switch (r.phase) {
    case 'done':
      return `Done: ${tally(r)}`;
    case 'stopped':
      return `Stopped:${why || ' out of credits.'} ${tally(r)}`;
    case 'cancelled':
      return `Cancelled: ${tally(r)}`;
    case 'failed':
      return `Failed:${why} ${tally(r)}`;
    case 'waiting-for-credits':
      return r.resumesAt === null
        ? `Waiting for credits.${why}`
        : `Waiting for credits until ${clock(r.resumesAt)}.${why}`;
    case 'preparing':
      return 'Preparing: listing and checking the files…';
    case 'paused':
      return `Paused: ${count(r.completed)} of ${count(r.total)} files done.`;
    case 'pausing':
      return 'Pausing after the files in flight…';
    case 'cancelling':
      return 'Cancelling…';
    case 'running':
      return `Labelling: ${count(r.completed)} of ${count(r.total)} files.`;
  }
}

/** "2.5 files/s · about 3 min 20 s left". */
export function rateText(r: RunState): string {
  const rate = `${r.ratePerSec < 10 ? r.ratePerSec.toFixed(1) : Math.round(r.ratePerSec)} files/s`;
  return r.etaSec === null ? rate : `${rate} · about ${duration(r.etaSec)} left`;
}
