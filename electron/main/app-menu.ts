/**
 * The application menu as a plain template (built into an Electron Menu by main): the usual
 * shortcuts through roles, our accelerators from the keyboard command registry (Add folder…,
 * the review's undo and redo, Review next), reload only in development, our help links.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { APP_NAME } from '../shared/app-info.js';
import { menuEntry, menuShown, type CommandId } from '../shared/keyboard/registry.js';
import { HELP_LINKS } from './external-links.js';

export interface MenuActions {
  isMac: boolean;
  isDev: boolean;
  addFolder(): void;
  /** Hands a registry command to the page of the focused window (it runs it as its key would). */
  runCommand(id: CommandId): void;
  openLink(url: string): void;
}

const pageKey = (id: 'review.undo' | 'review.redo') => menuEntry(id).accelerator;

export function appMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const { isMac, isDev } = actions;
  const appMenu: MenuItemConstructorOptions[] = isMac
    ? [
        {
          label: APP_NAME,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { ...menuEntry('app.addFolder'), click: () => actions.addFolder() },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      // The page handles these keys itself (undo in the review, text in a field): the menu only
      // shows them, except on macOS where text fields need the menu to undo.
      { role: 'undo', accelerator: pageKey('review.undo'), registerAccelerator: isMac },
      { role: 'redo', accelerator: pageKey('review.redo'), registerAccelerator: isMac },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };
  const review: MenuItemConstructorOptions = {
    label: '&Review',
    submenu: menuShown('review').map((id) => ({
      ...menuEntry(id),
      // The page keeps the key (Enter also presses a button or opens a library item): the menu
      // only shows it, and a click hands the command to the page.
      registerAccelerator: false,
      click: () => actions.runCommand(id),
    })),
  };
  const devItems: MenuItemConstructorOptions[] = isDev
    ? [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
      ]
    : [];
  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...devItems,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    label: '&Window',
    role: 'windowMenu',
    submenu: isMac
      ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  };
  const help: MenuItemConstructorOptions = {
    label: '&Help',
    role: 'help',
    submenu: HELP_LINKS.map((link) => ({
      label: link.label,
      click: () => actions.openLink(link.url),
    })),
  };
  return [...appMenu, file, edit, review, view, windowMenu, help];
}
