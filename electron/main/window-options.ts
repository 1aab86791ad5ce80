import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import { APP_NAME } from '../shared/app-info.js';

/** The renderer gets no Node, runs sandboxed and isolated, and reaches the main process only through the preload. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

/** The main window: shown once its first paint is ready, so it never flashes blank. */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 800,
    minHeight: 560,
    title: APP_NAME,
    show: false,
    webPreferences: secureWebPreferences(preloadPath),
  };
}
