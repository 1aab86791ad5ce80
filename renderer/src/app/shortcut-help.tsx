/** A dialog listing keyboard shortcuts (`?` on a screen that has them). */
import { useEffect, useRef } from 'react';

interface ShortcutHelpProps {
  title: string;
  shortcuts: ReadonlyArray<readonly [string, string]>;
  onClose(): void;
}

export function ShortcutHelp({ title, shortcuts, onClose }: ShortcutHelpProps) {
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
          {shortcuts.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
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
