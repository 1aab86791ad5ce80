// The Electron main process: composes the shell (windows, menu, IPC, media protocol, dialogs,
// notifications) around the application layer. Glue only; the behaviour lives in the modules it wires.
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  protocol,
  session,
  shell,
  type OpenDialogOptions,
  type SaveDialogOptions,
} from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Application } from '../application/application-types.js';
import { createApplication } from '../application/create-application.js';
import { setSqliteNativeBinding } from '../node-lib/sqlite.js';
import type { RunState } from '../shared/contract/run-schemas.js';
import { addPickedFolders } from './add-folders.js';
import { appMenuTemplate } from './app-menu.js';
import { APP_ENTRY_URL, APP_SCHEME_PRIVILEGES, handleAppProtocol } from './app-protocol.js';
import { openAllowedExternal } from './external-links.js';
import { desktopHostCapabilities } from './host-capabilities.js';
import { handleMediaProtocol, MEDIA_BASE, MEDIA_SCHEME_PRIVILEGES } from './media-protocol.js';
import { quitOnClose } from './quit-on-close.js';
import { forwardEvents, registerContract, sendMenuCommand } from './register-contract.js';
import { runFinishedNotice } from './run-notification.js';
import { electronSqliteBinding } from './sqlite-binding.js';
import {
  isRendererResource,
  trustedSenderPolicy,
  type RendererLocation,
} from './trusted-sender.js';
import { lockDownSession, lockDownWebContents } from './web-security.js';
import { mainWindowOptions } from './window-options.js';
import { messageOf } from '../shared/error-message.js';

const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const renderer: RendererLocation = { devServerUrl };
const rendererDir = join(import.meta.dirname, '../renderer');
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const windows = new Set<BrowserWindow>();
const openExternal = (url: string) => shell.openExternal(url);

// Must happen before `ready`: the app scheme serves the renderer (never file://); the media
// scheme is standard, secure and streamable.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES, MEDIA_SCHEME_PRIVILEGES]);

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath));
  windows.add(window);
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => windows.delete(window));
  void window.loadURL(devServerUrl ?? APP_ENTRY_URL);
  return window;
}

function focusMainWindow(): void {
  const [window] = windows;
  if (!window) {
    createMainWindow();
    return;
  }
  if (window.isMinimized()) window.restore();
  window.focus();
}

function parentWindow(): BrowserWindow | undefined {
  return BrowserWindow.getFocusedWindow() ?? [...windows][0];
}

const nativeDialog = {
  showOpenDialog(options: OpenDialogOptions) {
    const parent = parentWindow();
    return parent ? dialog.showOpenDialog(parent, options) : dialog.showOpenDialog(options);
  },
  showSaveDialog(options: SaveDialogOptions) {
    const parent = parentWindow();
    return parent ? dialog.showSaveDialog(parent, options) : dialog.showSaveDialog(options);
  },
};

function installMenu(application: Application, pickFolders: () => Promise<string[]>): void {
  const addFolder = async () => {
    const problems = await addPickedFolders(pickFolders, application);
    if (problems.length > 0)
      dialog.showErrorBox('Some folders were not added', problems.join('\n'));
  };
  const template = appMenuTemplate({
    isMac: process.platform === 'darwin',
    isDev: devServerUrl !== undefined,
    addFolder: () => void addFolder(),
    runCommand: (id) => sendMenuCommand(parentWindow()?.webContents, id),
    openLink: (url) => openAllowedExternal(url, openExternal),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function notifyWhenRunsEnd(application: Application): void {
  application.onEvent((name, payload) => {
    if (name !== 'run.finished' || !Notification.isSupported()) return;
    new Notification(runFinishedNotice(payload as RunState)).show();
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  app.on('web-contents-created', (_event, contents) => lockDownWebContents(contents, openExternal));
  lockDownSession(session.defaultSession, (url) => isRendererResource(url, renderer));

  const sqliteNativeBinding = electronSqliteBinding({
    isPackaged: app.isPackaged,
    appPath: app.getAppPath(),
    env: process.env,
    exists: existsSync,
  });
  setSqliteNativeBinding(sqliteNativeBinding);
  const host = desktopHostCapabilities(nativeDialog, shell);
  const application = await createApplication({
    transport: 'electron',
    mediaBase: MEDIA_BASE,
    host,
    sqliteNativeBinding,
    log: (line) => console.log(line),
  });
  quitOnClose(app, application, {
    log: (line) => console.log(line),
    signals: process,
    isMac: process.platform === 'darwin',
  });
  handleAppProtocol(protocol, rendererDir);
  handleMediaProtocol(protocol, application.media);
  const windowIds = () => [...windows].map((w) => w.webContents.id);
  registerContract(ipcMain, application, trustedSenderPolicy(renderer, windowIds));
  forwardEvents(application, () => [...windows].map((w) => w.webContents));
  notifyWhenRunsEnd(application);
  installMenu(application, () => host.pickFolders?.() ?? Promise.resolve([]));

  createMainWindow();
  app.on('activate', () => {
    if (windows.size === 0) createMainWindow();
  });
}

if (!app.requestSingleInstanceLock()) {
  // Another LabelDesk owns the library; it focuses its window on 'second-instance'.
  app.quit();
} else {
  app.on('second-instance', focusMainWindow);
  start().catch((err: unknown) => {
    dialog.showErrorBox('LabelDesk could not start', messageOf(err));
    app.exit(1);
  });
}
