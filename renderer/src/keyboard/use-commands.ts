/**
 * Binds the registry's commands of one scope to handlers. The registry decides which command a key
 * runs; the handler decides what it does, and answers false to let the key do its usual thing
 * (Tab past the last box). A key already handled (a list's up/down) or typed in a field is left
 * alone, and a range input keeps its arrows.
 */
import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { parseChord } from '@shared/keyboard/chords.js';
import {
  commandFor,
  menuCommandFor,
  type CommandId,
  type CommandScope,
} from '@shared/keyboard/registry.js';
import { useApiHandle } from '../api/api-context.js';
import { typingIn } from './typing.js';

/**
 * What a command runs; `chord` is the registry chord that matched ("Shift+ArrowUp"). Answering
 * `false` (only that) lets the key do its usual thing.
 */
export type CommandHandler = (chord: string, event: KeyboardEvent) => unknown;
export type CommandHandlers = Partial<Record<CommandId, CommandHandler>>;

interface Bindings {
  handlers: CommandHandlers;
  /** Boxes are selected (arrows move them rather than change item). */
  selection?: boolean;
}

/** Runs the command a key press names; true when it was handled (and its default prevented). */
export function runCommand(scope: CommandScope, e: KeyboardEvent, b: Bindings): boolean {
  if (e.defaultPrevented) return false;
  const onRange = e.target instanceof HTMLInputElement && e.target.type === 'range';
  if (onRange && e.key.startsWith('Arrow')) return false;
  const found = commandFor(scope, e, {
    selection: b.selection ?? false,
    typing: typingIn(e.target),
  });
  const handler = found ? b.handlers[found.command.id as CommandId] : undefined;
  if (!found || !handler) return false;
  if (handler(found.chord, e) === false) return false;
  e.preventDefault();
  return true;
}

/**
 * Runs a command the desktop menu handed over (Review next), if this scope binds it: its handler
 * sees the key the menu shows, pressed on no field or button.
 */
function runMenuCommand(scope: CommandScope, id: string, b: Bindings): void {
  const found = menuCommandFor(scope, id);
  const handler = found ? b.handlers[found.command.id as CommandId] : undefined;
  if (!found || !handler) return;
  handler(found.chord, new KeyboardEvent('keydown', { key: parseChord(found.chord).key }));
}

/**
 * The scope's keys, listened for on the window (they work wherever focus is on the screen), and
 * the same commands when the desktop menu runs them.
 */
export function useCommands(scope: CommandScope, bindings: Bindings): void {
  const { api } = useApiHandle();
  const live = useRef(bindings);
  live.current = bindings;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => void runCommand(scope, e, live.current);
    window.addEventListener('keydown', onKey);
    const offMenu = api.on('menu.command', ({ id }) => runMenuCommand(scope, id, live.current));
    return () => {
      window.removeEventListener('keydown', onKey);
      offMenu();
    };
  }, [scope, api]);
}

/** The scope's keys on one element (a grid that owns its keys while it has focus). */
export function commandKeyDown(scope: CommandScope, bindings: Bindings) {
  return (e: ReactKeyboardEvent) => void runCommand(scope, e.nativeEvent, bindings);
}
