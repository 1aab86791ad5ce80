/** What a run labels: every folder, some folders, or the library selection handed over. */
import type { FolderView } from '@shared/contract/index.js';
import { middleEllipsis } from '../folders/middle-ellipsis.js';
import { plural } from '../../ui/format.js';

export type ScopeKind = 'all' | 'folders' | 'selection';

interface ScopePickerProps {
  kind: ScopeKind;
  onKind(kind: ScopeKind): void;
  folders: FolderView[];
  chosen: ReadonlySet<number>;
  onChosen(ids: Set<number>): void;
  selectionSize: number | null;
}

export function ScopePicker(p: ScopePickerProps) {
  const radio = (kind: ScopeKind, label: string, disabled = false) => (
    <label className="radio">
      <input
        type="radio"
        name="run-scope"
        value={kind}
        checked={p.kind === kind}
        disabled={disabled}
        onChange={() => p.onKind(kind)}
      />
      {label}
    </label>
  );
  return (
    <fieldset className="scope">
      <legend>Scope</legend>
      {radio('all', 'All folders')}
      {radio('folders', 'Chosen folders', p.folders.length === 0)}
      {radio(
        'selection',
        p.selectionSize === null
          ? 'Library selection (none)'
          : `Library selection (${plural(p.selectionSize, 'file')})`,
        p.selectionSize === null,
      )}
      {p.kind === 'folders' ? (
        <ul className="scope-folders">
          {p.folders.map((f) => (
            <li key={f.id}>
              <label className="checkbox" title={f.path}>
                <input
                  type="checkbox"
                  checked={p.chosen.has(f.id)}
                  onChange={(e) => {
                    const next = new Set(p.chosen);
                    if (e.target.checked) next.add(f.id);
                    else next.delete(f.id);
                    p.onChosen(next);
                  }}
                />
                {middleEllipsis(f.path, 60)}
              </label>
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
