/**
 * The `?` help: the keyboard command registry's commands for the screen you are on (a review open
 * over the library lists the review's), so it can never list a key that does nothing there.
 */
import { useEffect, useRef } from 'react';
import { HELP_TITLES, helpRows } from '@shared/keyboard/registry.js';
import { useCall } from '../api/use-call.js';
import { closeHelp, helpStore } from '../keyboard/help-state.js';
import { useStore } from '../state/small-store.js';
import { useAppState } from './app-state.js';

export function ScreenHelp() {
  const open = useStore(helpStore, (s) => s.open);
  const review = useStore(helpStore, (s) => s.review);
  const { screen } = useAppState();
  const info = useCall('app.info', {});
  if (!open) return null;
  const on = review !== null && screen === 'library' ? review : screen;
  // The desktop app has a menu (its commands have keys); browser mode does not.
  const rows = helpRows(on, info.data?.nativeDialogs === true);
  return <ShortcutHelp title={HELP_TITLES[on]} rows={rows} onClose={closeHelp} />;
}

interface ShortcutHelpProps {
  title: string;
  rows: ReadonlyArray<{ id: string; keys: string; what: string }>;
  onClose(): void;
}

function ShortcutHelp({ title, rows, onClose }: ShortcutHelpProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} className="shortcut-help" aria-label={title} onClose={onClose}>
      <h2>{title}</h2>
      <table>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">
                <kbd>{r.keys}</kbd>
              </th>
              <td>{r.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}
