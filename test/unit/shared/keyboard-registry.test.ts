import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate } from '../../../electron/main/app-menu.js';
import {
  chordId,
  chordText,
  matchesChord,
  toAccelerator,
  type KeyPress,
} from '../../../electron/shared/keyboard/chords.js';
import {
  COMMANDS,
  commandById,
  commandFor,
  commandsOn,
  helpRows,
  menuCommandFor,
  type HelpScreen,
} from '../../../electron/shared/keyboard/registry.js';

const SCREENS: HelpScreen[] = ['library', 'folders', 'runs', 'service', 'quality', 'image', 'clip'];
const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

function menuItems(isMac: boolean): MenuItemConstructorOptions[] {
  const flat = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
    items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flat(i.submenu) : [])]);
  return flat(
    appMenuTemplate({
      isMac,
      isDev: true,
      addFolder: () => undefined,
      runCommand: () => undefined,
      openLink: () => undefined,
    }),
  );
}

describe('the keyboard command registry', () => {
  it('binds no key twice on one screen (unless one command needs a selection, the other none)', () => {
    for (const screen of SCREENS) {
      const seen = new Map<string, { id: string; when?: string }>();
      for (const c of commandsOn(screen, true)) {
        for (const key of c.keys) {
          const other = seen.get(chordId(key));
          const exclusive =
            other !== undefined &&
            new Set([other.when, c.when]).size === 2 &&
            [other.when, c.when].every((w) => w === 'selection' || w === 'noSelection');
          expect(other && !exclusive, `${screen}: ${key} in ${other?.id} and ${c.id}`).toBeFalsy();
          seen.set(chordId(key), { id: c.id, when: c.when });
        }
      }
    }
    expect(new Set(COMMANDS.map((c) => c.id)).size).toBe(COMMANDS.length);
  });

  it('takes every menu accelerator from a registry command', () => {
    const accelerators = new Set(COMMANDS.flatMap((c) => c.keys.map(toAccelerator)));
    for (const isMac of [false, true]) {
      const withKeys = menuItems(isMac).filter((i) => i.accelerator !== undefined);
      expect(withKeys.map((i) => i.accelerator)).toEqual([
        'CmdOrCtrl+O',
        'CmdOrCtrl+Z',
        'CmdOrCtrl+Shift+Z',
        'Enter',
      ]);
      for (const item of withKeys) expect(accelerators).toContain(item.accelerator);
    }
    const add = menuItems(false).find((i) => i.accelerator === 'CmdOrCtrl+O');
    expect(add?.label).toBe('Add folder…');
    // Undo and redo are only shown (the page handles them) outside macOS.
    const undo = menuItems(false).find((i) => i.role === 'undo');
    expect(undo?.registerAccelerator).toBe(false);
  });

  it('hands a menu command to the screen that binds it, with the chord it shows', () => {
    expect(menuCommandFor('image', 'review.reviewNext')).toEqual({
      command: commandById('review.reviewNext'),
      chord: 'Enter',
    });
    expect(menuCommandFor('clip', 'review.reviewNext')?.chord).toBe('Enter');
    // Not on a screen without it, and never a command the menu does not show.
    expect(menuCommandFor('library', 'review.reviewNext')).toBe(null);
    expect(menuCommandFor('image', 'review.accept')).toBe(null);
    expect(menuCommandFor('image', 'no.such.command')).toBe(null);
  });

  it('lists exactly the screen’s commands in the help, then those of every screen', () => {
    const library = helpRows('library', false);
    expect(library.map((r) => r.id)).toEqual([
      'library.move',
      'library.extend',
      'library.pick',
      'library.open',
      'library.select',
      'library.toggle',
      'library.selectAll',
      'library.clear',
      'app.library',
      'app.folders',
      'app.runs',
      'app.service',
      'app.quality',
      'app.team',
      'app.help',
    ]);
    // The menu's Add folder… only where there is a menu.
    expect(helpRows('folders', true).map((r) => r.id)).toContain('app.addFolder');
    expect(helpRows('folders', false).every((r) => r.id.startsWith('app.'))).toBe(true);
    const clip = helpRows('clip', false);
    const image = helpRows('image', false);
    expect(clip.map((r) => r.id)).toContain('clip.play');
    expect(image.map((r) => r.id)).not.toContain('clip.play');
    expect(image.find((r) => r.id === 'review.redo')).toEqual({
      id: 'review.redo',
      keys: 'Ctrl+Shift+Z / Ctrl+Y',
      what: 'Redo',
    });
    expect(clip.find((r) => r.id === 'review.acceptShown')?.what).toMatch(/paused frame/);
  });

  it('runs the command a key names, by screen and selection', () => {
    const id = (...a: Parameters<typeof commandFor>) => commandFor(...a)?.command.id ?? null;
    expect(id('image', press('ArrowRight'))).toBe('review.nextByArrow');
    expect(id('image', press('ArrowRight'), { selection: true })).toBe('review.nudge');
    expect(id('image', press('ArrowDown', { shiftKey: true }), { selection: true })).toBe(
      'review.nudgeFar',
    );
    expect(id('image', press('A', { shiftKey: true }))).toBe('review.acceptShown');
    expect(id('image', press('a'))).toBe('review.accept');
    expect(id('image', press('a', { ctrlKey: true }))).toBe(null);
    expect(id('image', press('z', { metaKey: true }))).toBe('review.undo');
    expect(id('image', press('Z', { ctrlKey: true, shiftKey: true }))).toBe('review.redo');
    expect(id('image', press(' '))).toBe(null);
    expect(id('clip', press(' '))).toBe('clip.play');
    // `?` and `>` need Shift on most layouts; they match with or without it.
    expect(id('app', press('?', { shiftKey: true }))).toBe('app.help');
    expect(id('clip', press('>', { shiftKey: true }))).toBe('clip.nextDetection');
    expect(id('app', press('2', { ctrlKey: true }))).toBe('app.folders');
    // Typing in a field: only what is meant to work there (switching screens).
    expect(id('app', press('?'), { typing: true })).toBe(null);
    expect(id('app', press('1', { ctrlKey: true }), { typing: true })).toBe('app.library');
    // The menu runs Add folder…: the page does not bind it.
    expect(id('app', press('o', { ctrlKey: true }))).toBe(null);
    expect(id('library', press('Home', { ctrlKey: true }))).toBe('library.move');
    expect(id('library', press(' ', { ctrlKey: true }))).toBe('library.toggle');
  });

  it('runs Alt+letter track keys on macOS, where Option+letter types another character', () => {
    const id = (p: KeyPress) => commandFor('clip', p)?.command.id ?? null;
    const option = (key: string, code: string) => press(key, { altKey: true, code });
    expect(id(option('å', 'KeyA'))).toBe('track.accept');
    expect(id(option('®', 'KeyR'))).toBe('track.reject');
    expect(id(option('µ', 'KeyM'))).toBe('track.merge');
    expect(id(option('ß', 'KeyS'))).toBe('track.split');
    // Option+E is a dead key on macOS: the code still names the key.
    expect(id(option('Dead', 'KeyA'))).toBe('track.accept');
    // Without Alt, the character decides as before (å is not A).
    expect(id(press('å', { code: 'KeyA' }))).toBe(null);
    // A layout that moves letters (AZERTY's A is where QWERTY has Q): the letter typed decides.
    expect(id(option('a', 'KeyQ'))).toBe('track.accept');
    expect(id(option('q', 'KeyA'))).toBe(null);
  });

  it('writes chords for people and for Electron', () => {
    expect(chordText('Mod+Shift+Z')).toBe('Ctrl+Shift+Z');
    expect(chordText('ArrowLeft')).toBe('←');
    expect(chordText('Escape')).toBe('Esc');
    expect(chordText('?')).toBe('?');
    expect(toAccelerator('Mod+O')).toBe('CmdOrCtrl+O');
    expect(toAccelerator('+')).toBe('Plus');
    expect(toAccelerator('Shift+ArrowUp')).toBe('Shift+Up');
    expect(matchesChord('Shift+Tab', press('Tab'))).toBe(false);
    expect(chordId('Shift+?')).toBe(chordId('?'));
    expect(chordId('Shift+A')).not.toBe(chordId('A'));
  });
});
