/**
 * "Add folder": the native picker in the desktop app; in browser mode a dialog where the path is
 * typed (the browser cannot name a folder on disk).
 */
import { useRef, useState, type FormEvent } from 'react';
import { useApiHandle } from '../../api/api-context.js';
import { useCall, useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';

export function AddFolder() {
  const { api } = useApiHandle();
  const info = useCall('app.info', {});
  const add = useCallMutation('folders.add', ['folders.list', 'runs.estimate']);
  const dialog = useRef<HTMLDialogElement>(null);
  const [path, setPath] = useState('');
  const [pickError, setPickError] = useState<unknown>(null);

  async function open() {
    setPickError(null);
    if (!info.data?.nativeDialogs) {
      add.reset();
      dialog.current?.showModal();
      return;
    }
    try {
      const { paths } = await api.call('host.pickFolders', {});
      for (const p of paths) await add.mutateAsync({ path: p });
    } catch (err) {
      setPickError(err);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate(
      { path: path.trim() },
      {
        onSuccess: () => {
          setPath('');
          dialog.current?.close();
        },
      },
    );
  }

  return (
    <>
      <button type="button" className="primary" onClick={() => void open()}>
        Add folder
      </button>
      {pickError ? <ErrorNote error={pickError} /> : null}
      <dialog ref={dialog} className="modal" aria-labelledby="add-folder-title">
        <form onSubmit={submit}>
          <h2 id="add-folder-title">Add a folder</h2>
          <label className="field">
            <span>Folder path</span>
            <input
              type="text"
              required
              autoFocus
              spellCheck={false}
              placeholder="/home/me/Pictures/site-a"
              value={path}
              onChange={(e) => setPath(e.target.value)}
            />
          </label>
          <p className="hint">Its images and clips are added to the library and kept in sync.</p>
          {add.isError ? <ErrorNote error={add.error} /> : null}
          <div className="actions">
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="primary" disabled={add.isPending}>
              Add
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
