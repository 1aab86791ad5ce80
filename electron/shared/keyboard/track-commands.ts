/**
 * Registry data: a clip's track keys (the `Tracks` list beside it). Alt with a box's key does the
 * same to the whole track (A accepts a box, Alt+A its track); `[` and `]` go to a track's ends.
 */
import type { CommandSpec } from './command-types.js';

export const TRACK_COMMANDS = [
  {
    id: 'track.first',
    keys: ['['],
    label: 'First box of the selected track',
    scopes: ['clip'],
  },
  { id: 'track.last', keys: [']'], label: 'Last box of the selected track', scopes: ['clip'] },
  {
    id: 'track.pick',
    keys: [],
    keysText: 'Click, Ctrl+click, Shift+click in Tracks',
    label: 'Select a track, add one, select a range',
    scopes: ['clip'],
  },
  { id: 'track.accept', keys: ['Alt+A'], label: 'Accept the selected tracks', scopes: ['clip'] },
  { id: 'track.reject', keys: ['Alt+R'], label: 'Reject the selected tracks', scopes: ['clip'] },
  {
    id: 'track.delete',
    keys: ['Alt+Delete', 'Alt+Backspace'],
    label: 'Delete the selected tracks',
    scopes: ['clip'],
  },
  {
    id: 'track.merge',
    keys: ['Alt+M'],
    label: 'Merge the selected tracks into one',
    scopes: ['clip'],
  },
  {
    id: 'track.split',
    keys: ['Alt+S'],
    label: 'Split the selected track at the current frame',
    scopes: ['clip'],
  },
] as const satisfies readonly CommandSpec[];
