/** The shape of one entry of the keyboard command registry (see registry.ts). */

/** Where a person can be when they press a key: a screen, or an item open for review. */
export type HelpScreen =
  'library' | 'folders' | 'runs' | 'service' | 'quality' | 'team' | 'image' | 'clip';
/** `app`: on every screen. */
export type CommandScope = 'app' | HelpScreen;

/**
 * A state that decides between two commands on the same key: arrows move the selected boxes, or,
 * with none selected, change item.
 */
export type CommandWhen = 'selection' | 'noSelection';

export interface CommandSpec {
  id: string;
  /** Chords (chords.ts); empty for a mouse gesture, which help lists and nothing binds. */
  keys: readonly string[];
  /** What it does, as help and the menu say it. */
  label: string;
  /** A screen's own wording (Shift+A acts on a clip's paused frame). */
  labelOn?: Partial<Record<HelpScreen, string>>;
  scopes: readonly CommandScope[];
  when?: CommandWhen;
  /** How help writes the keys when a list of every chord would read worse ("Arrows"). */
  keysText?: string;
  /** The desktop menu runs it (main binds it); the renderer does not. */
  menu?: 'file' | 'edit';
  /**
   * The desktop menu shows the key beside an item the page itself handles: undo in review (Edit),
   * Review next (Review, whose click hands the command to the page).
   */
  menuShows?: 'edit' | 'review';
  /** The menu's name for it, when help's label is a sentence. */
  menuLabel?: string;
  /** Also while typing in a field (switching screens). */
  inFields?: boolean;
}
