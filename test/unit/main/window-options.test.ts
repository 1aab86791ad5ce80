import { describe, expect, it } from 'vitest';
import { secureWebPreferences } from '../../../electron/main/window-options.js';

describe('secureWebPreferences', () => {
  it('isolates and sandboxes the renderer with no Node access', () => {
    const prefs = secureWebPreferences('/app/preload.mjs');
    expect(prefs).toMatchObject({
      preload: '/app/preload.mjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
  });
});
