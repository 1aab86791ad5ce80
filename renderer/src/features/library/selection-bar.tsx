/** What to do with the selected items: label them (Runs screen) or let go of them. */
import { useAppState } from '../../app/app-state.js';
import { plural } from '../../ui/format.js';
import { useLibraryState } from './library-state.js';
import { EMPTY_SELECTION } from './selection.js';

export function SelectionBar() {
  const { selection, setSelection } = useLibraryState();
  const { go, setSelectionScope } = useAppState();
  if (selection.ids.size === 0) return null;
  return (
    <div className="selection-bar" role="region" aria-label="Selection">
      <span>{plural(selection.ids.size, 'file')} selected</span>
      <button
        type="button"
        className="primary"
        onClick={() => {
          setSelectionScope([...selection.ids]);
          go('runs');
        }}
      >
        Label selection
      </button>
      <button type="button" onClick={() => setSelection(EMPTY_SELECTION)}>
        Clear selection
      </button>
    </div>
  );
}
