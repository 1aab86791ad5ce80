/**
 * Issue 23 §1: every wait a service asks for stays in [250 ms, 2^31 − 1 ms], a Retry-After no run
 * could wait out is handed back instead of waited, and one image may carry at most 10,000
 * detections (refused as implausible beyond, before any box is read).
 */
import { describe, expect, it } from 'vitest';
import {
  clampPollInterval,
  clampWait,
  MAX_TIMER_MS,
  MIN_WAIT_MS,
} from '../../../../electron/core/service/poll-interval.js';
import { retryDelayMs, retryPolicy } from '../../../../electron/core/service/retry-policy.js';
import { abortableSleep } from '../../../../electron/core/runner/run-stop.js';
import {
  AnswerNotUnderstoodError,
  ServiceError,
} from '../../../../electron/core/service/service-errors.js';
import { parseImageResult } from '../../../../electron/core/service/service-adapter.js';

const busy = (retryAfterSec: number) => new ServiceError(429, 'busy', 'Busy.', retryAfterSec);

describe('waits the service asks for', () => {
  it('never polls faster than the floor, even when the catalog allows 0', () => {
    expect(MIN_WAIT_MS).toBe(250);
    expect(clampPollInterval(0, { min: 0, max: 0 })).toBe(250);
    expect(clampPollInterval(5, { min: 0, max: 10 })).toBe(250);
  });

  it('never asks a timer for more than it holds, even when the catalog says 10^12', () => {
    expect(clampPollInterval(1e12, { min: 1e12, max: 1e12 })).toBe(MAX_TIMER_MS);
    expect(clampWait(1e12)).toBe(MAX_TIMER_MS);
  });

  it('keeps Retry-After: 0 at the floor and hands a Retry-After of 10^9 s back to the caller', () => {
    const policy = retryPolicy({ random: () => 0 });
    expect(retryDelayMs(busy(0), 1, policy)).toBe(250);
    expect(retryDelayMs(busy(1e9), 1, policy)).toBeNull();
  });

  it('sleeps a wait longer than a timer holds as the longest a timer holds (not 1 ms)', async () => {
    const ended = abortableSleep(1e12, new AbortController().signal).then(() => 'ended');
    const soon = new Promise((r) => setTimeout(() => r('still waiting'), 100));
    expect(await Promise.race([ended, soon])).toBe('still waiting');
  });
});

describe('detections per image', () => {
  const box = { bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 }, bboxPx: { x: 64, y: 48, w: 128, h: 96 } };
  const answer = (n: number) => ({
    detections: Array.from({ length: n }, () => box),
    image: { analysedWidth: 640, analysedHeight: 480 },
  });

  it('reads 10,000 detections but refuses 10,001 as implausible, with the counts in the reason', () => {
    expect(parseImageResult(answer(10_000)).detections).toHaveLength(10_000);
    let error: unknown;
    try {
      parseImageResult(answer(10_001));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AnswerNotUnderstoodError);
    expect((error as Error).message).toMatch(
      /10,001 detections, more than the 10,000 an image may carry: refused as implausible/,
    );
  });
});
