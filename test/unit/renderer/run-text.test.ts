import { describe, expect, it } from 'vitest';
import type { Estimate, RunState } from '../../../electron/shared/contract/index.js';
import {
  estimateNotes,
  estimateText,
  rateText,
  runStatusText,
} from '../../../renderer/src/features/runs/run-text.js';

const estimate: Estimate = {
  solution: 'objects',
  images: 100,
  clips: 4,
  clipFrames: 20,
  imageCost: 1,
  frameCost: 1,
  frames: 120,
  costUnknown: 0,
  alreadyLabelled: 0,
  refused: 0,
  uncertain: 0,
  pending: 0,
  remaining: 880,
  hourRemaining: 400,
  fits: true,
  fitsThisHour: true,
};

const run: RunState = {
  runKey: 'r1',
  phase: 'done',
  solution: 'objects',
  total: 102,
  completed: 102,
  labelled: 100,
  reused: 0,
  failed: 2,
  uncertain: 0,
  framesSpent: 120,
  estimateFrames: 120,
  ratePerSec: 2.5,
  etaSec: 200,
  resumesAt: null,
  detail: null,
  startedAt: 0,
  finishedAt: 1,
};

describe('estimate text', () => {
  it('states frames, how they add up, and what the key has left', () => {
    expect(estimateText(estimate)).toBe(
      'About 120 frames: 100 images × 1 + 4 clips, 20 frames × 1 — 880 left, 400 this hour',
    );
  });

  it('without a key or offline, says the credits are unknown', () => {
    expect(estimateText({ ...estimate, remaining: null, hourRemaining: null })).toMatch(
      /credits unknown$/,
    );
  });

  it('with nothing new, still names the frames', () => {
    const none = { ...estimate, images: 0, clips: 0, clipFrames: 0, frames: 0, alreadyLabelled: 8 };
    expect(estimateText(none)).toMatch(/^Nothing new to label: 0 frames/);
    expect(estimateNotes(none)).toContain('8 files already labelled: no frames spent on them.');
  });

  it('while a run goes, names its files apart (not already labelled, not uncertain)', () => {
    expect(estimateNotes({ ...estimate, inRun: 4 })).toContain(
      '4 files sent by the run going now: counted in its progress, not here.',
    );
  });

  it('in a team project, names the files the team answered, or why the hub was not asked', () => {
    expect(estimateNotes({ ...estimate, teamHas: 3 })).toContain(
      '3 files the team already answered: taken from the hub, no frames spent.',
    );
    expect(estimateNotes({ ...estimate, teamAway: 'connection refused' }).join(' ')).toMatch(
      /^The team hub could not be asked \(connection refused\): .* counted as to pay\.$/,
    );
    expect(estimateNotes({ ...estimate, teamHas: 0, teamAway: null })).toEqual([]);
  });

  it('warns when the run will not fit the key or this hour', () => {
    expect(estimateNotes({ ...estimate, fits: false }).join(' ')).toMatch(/stops when/);
    expect(estimateNotes({ ...estimate, fitsThisHour: false }).join(' ')).toMatch(/next hour/);
    expect(estimateNotes({ ...estimate, pending: 5 })).toContain(
      '5 files still being read: not counted yet.',
    );
  });
});

describe('run status text', () => {
  it('begins with Done when finished', () => {
    expect(runStatusText(run)).toBe('Done: 100 labelled, 2 failed, 120 frames spent');
  });

  it('names the time sending resumes while waiting for credits', () => {
    const at = new Date(2026, 10, 22, 14, 5).getTime();
    expect(runStatusText({ ...run, phase: 'waiting-for-credits', resumesAt: at })).toMatch(
      /^Waiting for credits until 14:05/,
    );
  });

  it('says why a run stopped', () => {
    const text = runStatusText({ ...run, phase: 'stopped', detail: 'The key has no frames left.' });
    expect(text).toMatch(/^Stopped: The key has no frames left\./);
    expect(text).toMatch(/120 frames spent/);
  });

  it('gives rate and time left while running', () => {
    expect(rateText(run)).toBe('2.5 files/s · about 3 min 20 s left');
    expect(rateText({ ...run, etaSec: null, ratePerSec: 12.4 })).toBe('12 files/s');
  });
});
