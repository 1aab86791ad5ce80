import type { WebPreferences } from 'electron';

/** The renderer gets no Node, runs sandboxed and isolated, and reaches the main process only through the preload. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    spellcheck: false,
  };
}
