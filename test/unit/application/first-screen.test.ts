import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstScreen, type FirstScreen } from '../../../electron/application/first-screen.js';
import { CALL_NAMES, type Handlers } from '../../../electron/shared/contract/index.js';

let begun: string[];
let handlers: Record<string, (input: unknown) => unknown>;
let answerPage: () => void;
let screen: FirstScreen;
let held: Promise<unknown>[];

beforeEach(() => {
  vi.useFakeTimers();
  begun = [];
  held = [];
  handlers = Object.fromEntries(CALL_NAMES.map((name) => [name, () => name]));
  handlers['library.page'] = () => new Promise<void>((resolve) => (answerPage = resolve));
  screen = afterFirstScreen(handlers as unknown as Handlers, {
    rescan: () => begun.push(`rescan@${Date.now()}`),
    startService: () => begun.push(`service@${Date.now()}`),
    holdTotals: (until) => held.push(until),
  });
});
afterEach(() => {
  screen.cancel();
  vi.useRealTimers();
});

describe('the service and the rescan wait for the first screen', () => {
  it('starts the service once the first grid page is answered and settled, the rescan later', async () => {
    const t0 = Date.now();
    vi.advanceTimersByTime(900);
    const page = handlers['library.page']?.({});
    for (const name of ['app.info', 'service.state', 'folders.list', 'runs.history'])
      expect(handlers[name]?.({})).toBe(name);
    vi.advanceTimersByTime(200);
    answerPage();
    await page;
    vi.advanceTimersByTime(299);
    expect(begun).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(begun).toEqual([`service@${t0 + 1400}`]);
    vi.advanceTimersByTime(10_000);
    expect(begun).toEqual([`service@${t0 + 1400}`, `rescan@${t0 + 1600}`]);
  });

  it('starts the service at once for a call that may need it, and only once', () => {
    const t0 = Date.now();
    vi.advanceTimersByTime(100);
    expect(handlers['runs.estimate']?.({})).toBe('runs.estimate');
    expect(handlers['service.useEmbedded']?.({})).toBe('service.useEmbedded');
    expect(begun).toEqual([`service@${t0 + 100}`]);
  });

  it('without a UI, starts the service with the rescan, before it', () => {
    const t0 = Date.now();
    vi.advanceTimersByTime(1499);
    expect(begun).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(begun).toEqual([`service@${t0 + 1500}`, `rescan@${t0 + 1500}`]);
    vi.advanceTimersByTime(10_000);
    expect(begun).toHaveLength(2);
  });

  it('starts neither once the app is closing', () => {
    screen.cancel();
    vi.advanceTimersByTime(10_000);
    expect(handlers['folders.list']?.({})).toBe('folders.list');
    expect(begun).toEqual([]);
  });

  it("holds the library's totals until the first page is answered, and only the first", async () => {
    const page = handlers['library.page']?.({});
    expect(held).toHaveLength(1);
    let released = false;
    void held[0]?.then(() => (released = true));
    await Promise.resolve();
    expect(released).toBe(false);
    answerPage();
    await page;
    expect(released).toBe(true);
    void handlers['library.page']?.({});
    expect(held).toHaveLength(1);
  });
});
