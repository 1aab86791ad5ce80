/** A folder's issues (entries a scan left out, files that could not be read), fetched when opened. */
import { useState } from 'react';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { plural } from '../../ui/format.js';

export function FolderIssues({ folderId, errors }: { folderId: number; errors: number }) {
  const [open, setOpen] = useState(false);
  const issues = useCall('folders.issues', { id: folderId, limit: 500 }, { enabled: open });
  if (errors === 0) return null;
  return (
    <details className="folder-issues" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{plural(errors, 'issue')}</summary>
      {issues.isError ? <ErrorNote error={issues.error} /> : null}
      {issues.data ? (
        <ul className="issue-list">
          {issues.data.map((i) => (
            <li key={i.path}>
              <span className="issue-path" title={i.path}>
                <bdi>{i.path}</bdi>
              </span>
              <code className="error-code">{i.code}</code>
              <span>{i.message}</span>
            </li>
          ))}
        </ul>
      ) : open ? (
        <p className="loading">Loading…</p>
      ) : null}
    </details>
  );
}
