/**
 * Key chords as the command registry writes them ("Mod+Shift+Z", "?", "ArrowRight", "Space"):
 * parsed, matched against a key press, written for people, and turned into Electron accelerators.
 * Pure: no DOM, no Electron.
 */

export interface Chord {
  /** Ctrl on Linux and Windows, Cmd on macOS. */
  mod: boolean;
  shift: boolean;
  alt: boolean;
  /** `KeyboardEvent.key` of the key itself (" " for Space). */
  key: string;
}

/** What the registry needs of a key press (a DOM KeyboardEvent has all of it). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The physical key (`KeyA`, `Digit1`): what names an Alt chord on macOS (see `pressedKey`). */
  code?: string | undefined;
}

export function parseChord(chord: string): Chord {
  // "+" alone, or a chord ending in "++", names the plus key itself.
  const plus = chord === '+' || chord.endsWith('++');
  const parts = (plus ? chord.slice(0, -1) : chord).split('+').filter(Boolean);
  const key = plus ? '+' : (parts.pop() ?? '');
  return {
    mod: parts.includes('Mod'),
    shift: parts.includes('Shift'),
    alt: parts.includes('Alt'),
    key: key === 'Space' ? ' ' : key,
  };
}

/** One chord, normalised, so that two spellings of the same keys compare equal. */
export function chordId(chord: string): string {
  const c = parseChord(chord);
  const key = /^[a-z]$/i.test(c.key) ? c.key.toLowerCase() : c.key;
  return `${c.mod ? 'mod+' : ''}${c.alt ? 'alt+' : ''}${shiftCounts(c.key) && c.shift ? 'shift+' : ''}${key}`;
}

/**
 * Shift is part of a chord for letters, digits and named keys; a symbol such as `?`, `<` or `+`
 * needs Shift on some layouts and not on others, so its Shift is not compared.
 */
function shiftCounts(key: string): boolean {
  return key.length > 1 || /^[a-z0-9]$/i.test(key);
}

export function matchesChord(chord: string, press: KeyPress): boolean {
  const c = parseChord(chord);
  if (c.mod !== (press.ctrlKey || press.metaKey) || c.alt !== press.altKey) return false;
  if (shiftCounts(c.key) && c.shift !== press.shiftKey) return false;
  const letter = /^[a-z]$/i.test(c.key);
  const key = c.alt ? pressedKey(press) : press.key;
  return letter ? key.toLowerCase() === c.key.toLowerCase() : key === c.key;
}

/**
 * The key of an Alt chord. macOS's Option+letter types another character (Option+A is `å`,
 * Option+E a dead key), so when the character is not a plain letter or digit the physical key
 * (`KeyA`, `Digit1`) names it. A plain letter still decides first, so a layout that moves letters
 * (AZERTY) keeps Alt with the letter its key shows.
 */
function pressedKey(press: KeyPress): string {
  if (/^[a-z0-9]$/i.test(press.key)) return press.key;
  const physical = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(press.code ?? '');
  return physical ? (physical[1] ?? physical[2] ?? press.key) : press.key;
}

const SHOWN: Record<string, string> = {
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  Escape: 'Esc',
  ' ': 'Space',
  PageUp: 'Page Up',
  PageDown: 'Page Down',
};

/** A chord as the help writes it ("Ctrl+Shift+Z", "→", "Esc"). */
export function chordText(chord: string): string {
  const c = parseChord(chord);
  const key = SHOWN[c.key] ?? (c.key.length === 1 ? c.key.toUpperCase() : c.key);
  const shift = c.shift && shiftCounts(c.key);
  return `${c.mod ? 'Ctrl+' : ''}${c.alt ? 'Alt+' : ''}${shift ? 'Shift+' : ''}${key}`;
}

const ACCELERATOR_KEYS: Record<string, string> = {
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ' ': 'Space',
  '+': 'Plus',
  Escape: 'Esc',
};

/** The same chord as an Electron menu accelerator ("CmdOrCtrl+Shift+Z"). */
export function toAccelerator(chord: string): string {
  const c = parseChord(chord);
  const key = ACCELERATOR_KEYS[c.key] ?? (c.key.length === 1 ? c.key.toUpperCase() : c.key);
  return [c.mod ? 'CmdOrCtrl' : '', c.alt ? 'Alt' : '', c.shift ? 'Shift' : '', key]
    .filter(Boolean)
    .join('+');
}
