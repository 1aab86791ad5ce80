import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { appMenuTemplate } from '../../../electron/main/app-menu.js';
import { isAllowedExternalUrl } from '../../../electron/main/external-links.js';
import { runFinishedNotice } from '../../../electron/main/run-notification.js';
import type { RunState } from '../../../electron/shared/contract/index.js';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [
    item,
    ...(Array.isArray(item.submenu) ? flatten(item.submenu) : []),
  ]);
}

function menu(isDev: boolean, isMac = false) {
  const calls: string[] = [];
  const template = appMenuTemplate({
    isMac,
    isDev,
    addFolder: () => calls.push('addFolder'),
    runCommand: (id) => calls.push(id),
    openLink: (url) => calls.push(url),
  });
  return { template, items: flatten(template), calls };
}

describe('the app menu', () => {
  it('adds folders on Ctrl/Cmd+O and has the usual edit and view roles', () => {
    const { items, calls } = menu(false);
    const add = items.find((i) => i.label === 'Add folder…')!;
    expect(add.accelerator).toBe('CmdOrCtrl+O');
    (add.click as () => void)();
    expect(calls).toEqual(['addFolder']);
    const roles = items.map((i) => i.role);
    for (const role of [
      'quit',
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'selectAll',
      'zoomIn',
      'zoomOut',
      'resetZoom',
      'togglefullscreen',
    ]) {
      expect(roles).toContain(role);
    }
  });

  it('has Review next (Enter) from the registry, shown but left to the page, run by a click', () => {
    for (const isMac of [false, true]) {
      const { template, calls } = menu(false, isMac);
      const review = template.find((i) => i.label === '&Review')!;
      const [next] = review.submenu as MenuItemConstructorOptions[];
      expect(next).toMatchObject({
        label: 'Review next',
        accelerator: 'Enter',
        // Enter also presses buttons and opens a library item: the page keeps the key.
        registerAccelerator: false,
      });
      (next!.click as () => void)();
      expect(calls).toEqual(['review.reviewNext']);
    }
  });

  it('offers reload and dev tools in development only', () => {
    expect(menu(false).items.map((i) => i.role)).not.toContain('reload');
    expect(menu(false).items.map((i) => i.role)).not.toContain('toggleDevTools');
    expect(menu(true).items.map((i) => i.role)).toContain('reload');
  });

  it('opens only allowed links from Help', () => {
    const { template, calls } = menu(false, true);
    const help = template.find((i) => i.role === 'help')!;
    for (const item of help.submenu as MenuItemConstructorOptions[]) (item.click as () => void)();
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every(isAllowedExternalUrl)).toBe(true);
    expect(template[0]!.label).toBe('LabelDesk');
  });
});

describe('the run notification', () => {
  const run: RunState = {
    runKey: 'r1',
    phase: 'done',
    solution: 'objects',
    total: 10,
    completed: 10,
    labelled: 7,
    reused: 1,
    failed: 2,
    uncertain: 0,
    framesSpent: 42,
    estimateFrames: 50,
    ratePerSec: 1,
    etaSec: null,
    resumesAt: null,
    detail: null,
    startedAt: 1,
    finishedAt: 2,
  };

  it('says how the run ended and what it did', () => {
    expect(runFinishedNotice(run)).toEqual({
      title: 'Labelling finished',
      body: '7 labelled, 1 reused, 2 failed, 42 frames spent',
    });
    expect(
      runFinishedNotice({ ...run, phase: 'stopped', detail: 'The key has no frames left' }),
    ).toEqual({
      title: 'Labelling stopped',
      body: '7 labelled, 1 reused, 2 failed, 42 frames spent. The key has no frames left',
    });
  });
});
