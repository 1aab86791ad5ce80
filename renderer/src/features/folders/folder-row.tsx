/** One library folder: its path, counts, watching options, rescan, remove and per-file errors. */
import { useState } from 'react';
import type { FolderView } from '@shared/contract/index.js';
import { useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { count } from '../../ui/format.js';
import { Switch } from '../../ui/switch.js';
import { FolderIssues } from './folder-issues.js';
import { middleEllipsis } from './middle-ellipsis.js';

const FOLDER_VIEWS = ['folders.list', 'runs.estimate', 'library.page'] as const;

export function FolderRow({ folder }: { folder: FolderView }) {
  const setWatch = useCallMutation('folders.setWatch', ['folders.list']);
  const rescan = useCallMutation('folders.rescan', [...FOLDER_VIEWS]);
  const remove = useCallMutation('folders.remove', [...FOLDER_VIEWS, 'library.classCounts']);
  const [confirming, setConfirming] = useState(false);
  const c = folder.counts;
  const watch = (next: Partial<Pick<FolderView, 'watching' | 'polling' | 'autoLabel'>>) =>
    setWatch.mutate({
      id: folder.id,
      watching: next.watching ?? folder.watching,
      polling: next.polling ?? folder.polling,
      autoLabel: next.autoLabel ?? folder.autoLabel,
    });

  return (
    <li className="folder-row" aria-label={folder.path}>
      <div className="folder-main">
        <span className="folder-path" title={folder.path}>
          {middleEllipsis(folder.path, 72)}
        </span>
        {folder.scanning ? <span className="badge badge-busy">Scanning…</span> : null}
        {folder.missing ? (
          <span className="badge badge-warning" role="status">
            Folder missing{folder.watching ? ' — watching paused until it returns' : ''}
          </span>
        ) : null}
        <dl className="folder-counts">
          <div>
            <dt>Images</dt>
            <dd>{count(c.images)}</dd>
          </div>
          <div>
            <dt>Clips</dt>
            <dd>{count(c.clips)}</dd>
          </div>
          <div>
            <dt>Labelled</dt>
            <dd>{count(c.labelled)}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd className={c.failed ? 'text-error' : undefined}>{count(c.failed)}</dd>
          </div>
          <div>
            <dt>New</dt>
            <dd>{count(c.new)}</dd>
          </div>
        </dl>
      </div>
      <div className="folder-controls">
        <Switch label="Watch" checked={folder.watching} onChange={(v) => watch({ watching: v })} />
        <label className="checkbox">
          <input
            type="checkbox"
            checked={folder.polling}
            onChange={(e) => watch({ polling: e.target.checked })}
          />
          Poll (network drive)
        </label>
        <Switch
          label="Auto-label"
          checked={folder.autoLabel}
          onChange={(v) => watch({ autoLabel: v })}
        />
        <button type="button" onClick={() => rescan.mutate({ id: folder.id })}>
          Rescan
        </button>
        {confirming ? (
          <span className="confirm" role="group" aria-label="Remove this folder?">
            <span>Remove from the library?</span>
            <button
              type="button"
              className="danger"
              onClick={() => remove.mutate({ id: folder.id })}
            >
              Confirm remove
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Remove
          </button>
        )}
      </div>
      {[setWatch, rescan, remove].map((m, i) =>
        m.isError ? <ErrorNote key={i} error={m.error} /> : null,
      )}
      <FolderIssues folderId={folder.id} errors={folder.errors} />
    </li>
  );
}
