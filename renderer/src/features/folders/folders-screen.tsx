/** The Folders screen: the library's folders, added by picker, typed path or drop. */
import { useApiHandle } from '../../api/api-context.js';
import { useCall } from '../../api/use-call.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorNote } from '../../ui/error-note.js';
import { AddFolder } from './add-folder.js';
import { FolderRow } from './folder-row.js';
import { DROP_NEEDS_DESKTOP } from './use-folder-drop.js';

export function FoldersScreen() {
  const folders = useCall('folders.list', {});
  const { pathForFile } = useApiHandle();
  return (
    <div className="screen folders-screen">
      <div className="screen-head">
        <h1>Folders</h1>
        <div className="actions">
          <AddFolder />
        </div>
      </div>
      <p className="hint">
        {pathForFile ? 'Drop folders on this window to add them.' : DROP_NEEDS_DESKTOP}
      </p>
      {folders.isError ? <ErrorNote error={folders.error} /> : null}
      {folders.data?.length === 0 ? (
        <EmptyState title="No folders yet">
          Add a folder of images and clips with <strong>Add folder</strong>. LabelDesk lists its
          files, keeps them in sync while Watch is on, and labels them from the Runs screen.
        </EmptyState>
      ) : null}
      {folders.data?.length ? (
        <ul className="folder-list" aria-label="Folders">
          {folders.data.map((f) => (
            <FolderRow key={f.id} folder={f} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
