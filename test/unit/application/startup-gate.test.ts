import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StartupGate } from '../../../electron/application/startup-gate.js';

const TIMES = { delayMs: 1500, settleMs: 500, latestMs: 6000 };

let begun: number[];
let gate: StartupGate;
beforeEach(() => {
  vi.useFakeTimers();
  begun = [];
  gate = new StartupGate(
    TIMES,
    () => begun.push(Date.now()),
    () => Date.now(),
  );
});
afterEach(() => {
  gate.cancel();
  vi.useRealTimers();
});

describe('the background start-up work waits for the first grid page', () => {
  it('begins after the plain delay when no page is asked for (no UI)', () => {
    const t0 = Date.now();
    vi.advanceTimersByTime(1499);
    expect(begun).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(begun).toEqual([t0 + 1500]);
    vi.advanceTimersByTime(10_000);
    expect(begun).toHaveLength(1);
  });

  it('waits for a page asked before the delay, then lets it settle', () => {
    const t0 = Date.now();
    vi.advanceTimersByTime(800);
    gate.pageAsked();
    vi.advanceTimersByTime(1200);
    expect(begun).toEqual([]);
    gate.pageAnswered();
    vi.advanceTimersByTime(499);
    expect(begun).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(begun).toEqual([t0 + 2500]);
  });

  it('begins at the delay when the page was answered and settled before it', () => {
    const t0 = Date.now();
    gate.pageAsked();
    vi.advanceTimersByTime(300);
    gate.pageAnswered();
    vi.advanceTimersByTime(5000);
    expect(begun).toEqual([t0 + 1500]);
  });

  it('begins at the latest even if the page is never answered', () => {
    const t0 = Date.now();
    gate.pageAsked();
    vi.advanceTimersByTime(6000);
    expect(begun).toEqual([t0 + 6000]);
  });

  it('begins at once, and once only, when asked to (a folder being added)', () => {
    const t0 = Date.now();
    gate.pageAsked();
    vi.advanceTimersByTime(100);
    gate.openNow();
    expect(begun).toEqual([t0 + 100]);
    gate.pageAnswered();
    gate.openNow();
    vi.advanceTimersByTime(10_000);
    expect(begun).toHaveLength(1);
  });

  it('never begins once cancelled (the app closing)', () => {
    gate.pageAsked();
    gate.cancel();
    gate.pageAnswered();
    vi.advanceTimersByTime(10_000);
    expect(begun).toEqual([]);
  });
});
