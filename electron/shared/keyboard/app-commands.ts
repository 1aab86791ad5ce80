/** Registry data: the keys of every screen (switching screens, help, the menu) and the library's. */
import type { CommandSpec } from './command-types.js';

const GRID_MOVES = ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', 'PageDown', 'PageUp'];
const GRID_ENDS = ['Home', 'End', 'Mod+Home', 'Mod+End'];

export const APP_COMMANDS = [
  { id: 'app.library', keys: ['Mod+1'], label: 'Go to Library', scopes: ['app'], inFields: true },
  { id: 'app.folders', keys: ['Mod+2'], label: 'Go to Folders', scopes: ['app'], inFields: true },
  { id: 'app.runs', keys: ['Mod+3'], label: 'Go to Runs', scopes: ['app'], inFields: true },
  { id: 'app.service', keys: ['Mod+4'], label: 'Go to Service', scopes: ['app'], inFields: true },
  { id: 'app.quality', keys: ['Mod+5'], label: 'Go to Quality', scopes: ['app'], inFields: true },
  { id: 'app.team', keys: ['Mod+6'], label: 'Go to Team', scopes: ['app'], inFields: true },
  { id: 'app.addFolder', keys: ['Mod+O'], label: 'Add folder…', scopes: ['app'], menu: 'file' },
  { id: 'app.help', keys: ['?'], label: 'This help', scopes: ['app'] },
] as const satisfies readonly CommandSpec[];

export const LIBRARY_COMMANDS = [
  {
    id: 'library.move',
    keys: [...GRID_MOVES, ...GRID_ENDS],
    keysText: 'Arrows, Page Up / Down, Home / End',
    label: 'Move between items (Ctrl+Home / End: first / last)',
    scopes: ['library'],
  },
  {
    id: 'library.extend',
    keys: [...GRID_MOVES, ...GRID_ENDS].map((k) => `Shift+${k}`),
    keysText: 'Shift+arrows, Shift+Page Up / Down',
    label: 'Extend the selection',
    scopes: ['library'],
  },
  {
    id: 'library.pick',
    keys: [],
    keysText: 'Click, Shift+click, Ctrl+click',
    label: 'Select an item, a range, add or remove one',
    scopes: ['library'],
  },
  { id: 'library.open', keys: ['Enter'], label: 'Open the item', scopes: ['library'] },
  { id: 'library.select', keys: ['Space'], label: 'Select the item', scopes: ['library'] },
  {
    id: 'library.toggle',
    keys: ['Mod+Space'],
    label: 'Add the item to the selection, or remove it',
    scopes: ['library'],
  },
  {
    id: 'library.selectAll',
    keys: ['Mod+A'],
    label: 'Select every item shown',
    scopes: ['library'],
  },
  { id: 'library.clear', keys: ['Escape'], label: 'Clear the selection', scopes: ['library'] },
] as const satisfies readonly CommandSpec[];
