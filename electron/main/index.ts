// Electron glue only: windows and IPC registration. Business logic lives in electron/core.
import { app, BrowserWindow } from 'electron';
import { join } from 'node:path';
import { secureWebPreferences } from './window-options.js';

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    title: 'LabelDesk',
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.mjs')),
  });
  if (process.env['ELECTRON_RENDERER_URL']) {
    void window.loadURL(process.env['ELECTRON_RENDERER_URL']);
  } else {
    void window.loadFile(join(import.meta.dirname, '../renderer/index.html'));
  }
  return window;
}

void app.whenReady().then(() => {
  createMainWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
