/**
 * The desktop app's quit path, in plain Node: the last window closed, Quit, SIGTERM or SIGINT
 * close the application once and exit; a close that hangs is cut at the deadline; a second
 * request ends at once. The same `quitter` serves `labeldesk app`.
 */
import { EventEmitter } from 'node:events';
import type { App } from 'electron';
import { describe, expect, it } from 'vitest';
import { quitter } from '../../../electron/application/quit-deadline.js';
import { quitOnClose, type QuittingApp } from '../../../electron/main/quit-on-close.js';

/** Electron's quit sequence as far as the glue sees it: quit() emits a preventable before-quit. */
class FakeApp extends EventEmitter implements QuittingApp {
  exits: number[] = [];
  quits = 0;
  quit(): void {
    this.quits++;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.exits.push(0);
  }
  exit(code: number): void {
    this.exits.push(code);
  }
}

function closing(ms: number | 'never') {
  const calls: number[] = [];
  return {
    calls,
    close: () => {
      calls.push(Date.now());
      return ms === 'never'
        ? new Promise<void>(() => undefined)
        : new Promise<void>((r) => setTimeout(r, ms));
    },
  };
}

const waitUntil = async (check: () => boolean) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > 5000) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
  return Date.now() - start;
};

describe('quitting the desktop app', () => {
  it("type-checks against Electron's own App", () => {
    const accepts = (app: App): QuittingApp => app;
    expect(typeof accepts).toBe('function');
  });

  it('closes the application once when the last window closes, then exits 0', async () => {
    const app = new FakeApp();
    const application = closing(50);
    quitOnClose(app, application, { log: () => undefined });
    app.emit('window-all-closed');
    expect(app.exits).toEqual([]);
    await waitUntil(() => app.exits.length > 0);
    expect(app.exits).toEqual([0]);
    expect(application.calls).toHaveLength(1);
  });

  it('keeps running on macOS when the last window closes', () => {
    const app = new FakeApp();
    quitOnClose(app, closing(0), { log: () => undefined, isMac: true });
    app.emit('window-all-closed');
    expect(app.quits).toBe(0);
  });

  it('quits on SIGTERM and SIGINT like the menu, and a second one ends at once (130)', async () => {
    const app = new FakeApp();
    const signals = new EventEmitter();
    const application = closing('never');
    quitOnClose(app, application, { log: () => undefined, signals, deadlineMs: 2000 });
    signals.emit('SIGTERM');
    expect(application.calls).toHaveLength(1);
    signals.emit('SIGINT');
    expect(app.exits).toEqual([130]);
    expect(application.calls).toHaveLength(1);
  });

  it('exits at the deadline when closing hangs, saying so', async () => {
    const app = new FakeApp();
    const lines: string[] = [];
    quitOnClose(app, closing('never'), { log: (l) => lines.push(l), deadlineMs: 200 });
    app.quit();
    const took = await waitUntil(() => app.exits.length > 0);
    expect(app.exits).toEqual([1]);
    expect(took).toBeGreaterThanOrEqual(150);
    expect(took).toBeLessThan(1500);
    expect(lines.join('\n')).toMatch(/stopping now/);
  });
});

describe('quitter', () => {
  it('exits 1 with the reason when closing fails', async () => {
    const exits: number[] = [];
    const lines: string[] = [];
    const quit = quitter({
      close: () => Promise.reject(new Error('disk gone')),
      exit: (c) => exits.push(c),
      log: (l) => lines.push(l),
    });
    quit();
    await waitUntil(() => exits.length > 0);
    expect(exits).toEqual([1]);
    expect(lines).toEqual(['Closing failed: disk gone']);
  });
});
