/**
 * The keyboard command registry: every key of every screen, once. The renderer binds a handler to
 * each id and builds the `?` help from it; the desktop menu takes its accelerators from it. This
 * module is data and lookups only (shared by main and the renderer).
 */
import { APP_COMMANDS, LIBRARY_COMMANDS } from './app-commands.js';
import { chordText, matchesChord, toAccelerator, type KeyPress } from './chords.js';
import type { CommandScope, CommandSpec, CommandWhen, HelpScreen } from './command-types.js';
import { REVIEW_COMMANDS } from './review-commands.js';
import { TRACK_COMMANDS } from './track-commands.js';

export type { CommandScope, CommandSpec, CommandWhen, HelpScreen } from './command-types.js';

export const COMMANDS: readonly CommandSpec[] = [
  ...REVIEW_COMMANDS,
  ...TRACK_COMMANDS,
  ...LIBRARY_COMMANDS,
  ...APP_COMMANDS,
];
export type CommandId =
  | (typeof REVIEW_COMMANDS)[number]['id']
  | (typeof TRACK_COMMANDS)[number]['id']
  | (typeof LIBRARY_COMMANDS)[number]['id']
  | (typeof APP_COMMANDS)[number]['id'];

export const HELP_TITLES: Record<HelpScreen, string> = {
  library: 'Library shortcuts',
  folders: 'Folders shortcuts',
  runs: 'Runs shortcuts',
  service: 'Service shortcuts',
  quality: 'Quality shortcuts',
  team: 'Team shortcuts',
  image: 'Review shortcuts',
  clip: 'Review shortcuts',
};

export function commandById(id: CommandId): CommandSpec {
  const found = COMMANDS.find((c) => c.id === id);
  if (!found) throw new Error(`no command ${id}`);
  return found;
}

/** The commands of a scope alone (`app`: those of every screen). */
export function commandsIn(scope: CommandScope): CommandSpec[] {
  return COMMANDS.filter((c) => c.scopes.includes(scope));
}

/**
 * What `?` lists on a screen: its own commands, then those of every screen. The menu's commands
 * only where there is a menu (the desktop app).
 */
export function commandsOn(screen: HelpScreen, withMenu: boolean): CommandSpec[] {
  return [...commandsIn(screen), ...commandsIn('app')].filter((c) => withMenu || !c.menu);
}

export interface HelpRow {
  id: string;
  keys: string;
  what: string;
}

export function helpRows(screen: HelpScreen, withMenu: boolean): HelpRow[] {
  return commandsOn(screen, withMenu).map((c) => ({
    id: c.id,
    keys: c.keysText ?? c.keys.map(chordText).join(' / '),
    what: c.labelOn?.[screen] ?? c.label,
  }));
}

/** The command of `scope` a key press runs in this state, and which of its chords matched. */
export function commandFor(
  scope: CommandScope,
  press: KeyPress,
  state: { selection?: boolean; typing?: boolean } = {},
): { command: CommandSpec; chord: string } | null {
  for (const command of commandsIn(scope)) {
    if (command.menu || !fits(command.when, state.selection ?? false)) continue;
    if (state.typing && !command.inFields) continue;
    const chord = command.keys.find((k) => matchesChord(k, press));
    if (chord) return { command, chord };
  }
  return null;
}

function fits(when: CommandWhen | undefined, selection: boolean): boolean {
  if (when === 'selection') return selection;
  if (when === 'noSelection') return !selection;
  return true;
}

/** The label and accelerator of a command in the desktop menu (its first chord). */
export function menuEntry(id: CommandId): { label: string; accelerator: string } {
  const c = commandById(id);
  const [first] = c.keys;
  if (!first) throw new Error(`command ${id} has no key for the menu`);
  return { label: c.menuLabel ?? c.label, accelerator: toAccelerator(first) };
}

/** The commands a menu shows for the page to run (the Review menu's), in registry order. */
export function menuShown(menu: NonNullable<CommandSpec['menuShows']>): CommandId[] {
  return COMMANDS.filter((c) => c.menuShows === menu).map((c) => c.id as CommandId);
}

/**
 * The command a menu click hands to a screen, with the chord the menu shows beside it; null
 * when `scope` has no such command or the menu does not show it (an id from outside is checked).
 */
export function menuCommandFor(
  scope: CommandScope,
  id: string,
): { command: CommandSpec; chord: string } | null {
  const command = commandsIn(scope).find((c) => c.id === id);
  const chord = command?.keys[0];
  if (!command?.menuShows || chord === undefined) return null;
  return { command, chord };
}

/** A command's keys as a tooltip writes them ("Ctrl+Shift+Z / Ctrl+Y"). */
export function keysText(id: CommandId): string {
  return commandById(id).keys.map(chordText).join(' / ');
}
