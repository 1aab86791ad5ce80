import { describe, expect, it } from 'vitest';
import { addPickedFolders } from '../../../electron/main/add-folders.js';
import { desktopHostCapabilities } from '../../../electron/main/host-capabilities.js';
import { mainWindowOptions, secureWebPreferences } from '../../../electron/main/window-options.js';
import type { Handlers } from '../../../electron/shared/contract/index.js';

describe('secureWebPreferences', () => {
  it('isolates and sandboxes the renderer with no Node access', () => {
    const prefs = secureWebPreferences('/app/preload.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(mainWindowOptions('/app/preload.cjs').webPreferences).toEqual(prefs);
  });
});

describe('the native folder picker', () => {
  it('asks for several directories and answers nothing when cancelled', async () => {
    const asked: unknown[] = [];
    let answer = { canceled: false, filePaths: ['/data/a', '/data/b'] };
    const host = desktopHostCapabilities(
      {
        showOpenDialog: async (options) => (asked.push(options), answer),
        showSaveDialog: async () => ({ canceled: true, filePath: '' }),
      },
      { showItemInFolder: () => undefined },
    );
    expect(await host.pickFolders!()).toEqual(['/data/a', '/data/b']);
    expect(asked[0]).toMatchObject({
      properties: expect.arrayContaining(['openDirectory', 'multiSelections']),
    });
    answer = { canceled: true, filePaths: ['/data/a'] };
    expect(await host.pickFolders!()).toEqual([]);
  });

  it('picks an export target: a folder for folder formats, a file name otherwise', async () => {
    const asked: unknown[] = [];
    let saved = { canceled: false, filePath: '/data/out/coco.json' };
    const host = desktopHostCapabilities(
      {
        showOpenDialog: async (options) => (
          asked.push(options),
          { canceled: false, filePaths: ['/data/yolo'] }
        ),
        showSaveDialog: async (options) => (asked.push(options), saved),
      },
      { showItemInFolder: () => undefined },
    );
    expect(await host.pickSaveTarget!(true)).toBe('/data/yolo');
    expect(asked[0]).toMatchObject({ properties: expect.arrayContaining(['openDirectory']) });
    expect(await host.pickSaveTarget!(false, 'coco.json')).toBe('/data/out/coco.json');
    expect(asked[1]).toMatchObject({ defaultPath: 'coco.json' });
    saved = { canceled: true, filePath: '' };
    expect(await host.pickSaveTarget!(false)).toBeNull();
  });

  it('adds each picked folder through the validated contract and reports the refusals', async () => {
    const added: string[] = [];
    const handlers = {
      'folders.add': async ({ path }: { path: string }) => {
        if (path === '/gone')
          throw Object.assign(new Error('The folder does not exist.'), { code: 'not_found' });
        added.push(path);
        return {
          id: 1,
          path,
          watching: false,
          polling: false,
          autoLabel: false,
          scanning: true,
          missing: false,
          lastScanAt: null,
          counts: { images: 0, clips: 0, labelled: 0, failed: 0, new: 0 },
          errors: 0,
        };
      },
    } as unknown as Handlers;
    const problems = await addPickedFolders(async () => ['/data/a', '/gone', ''], { handlers });
    expect(added).toEqual(['/data/a']);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe('/gone: The folder does not exist.');
    expect(problems[1]).toMatch(/^: folders.add: /);
  });
});
