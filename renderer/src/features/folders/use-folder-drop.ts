/**
 * Dropping folders on the window adds them. Only the desktop app can name a dropped folder's path
 * (through the preload); the browser gets a one-line hint instead.
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApiHandle } from '../../api/api-context.js';
import { codedError } from '../../api/error-text.js';

export const DROP_NEEDS_DESKTOP =
  'Dropping folders needs the desktop app: use Add folder and type the folder path.';

export function useFolderDrop(): { hint: string | null; clearHint(): void } {
  const { api, pathForFile } = useApiHandle();
  const client = useQueryClient();
  const [hint, setHint] = useState<string | null>(null);

  useEffect(() => {
    const carriesFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const over = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = pathForFile ? 'link' : 'none';
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (!pathForFile) {
        setHint(DROP_NEEDS_DESKTOP);
        return;
      }
      const paths = [...(e.dataTransfer?.files ?? [])].map(pathForFile).filter(Boolean);
      void Promise.allSettled(paths.map((path) => api.call('folders.add', { path }))).then(
        (results) => {
          const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
          setHint(
            failed.length
              ? failed.map((f) => codedError(f).message).join(' ')
              : `Added ${paths.length === 1 ? 'a folder' : `${paths.length} folders`}.`,
          );
          void client.invalidateQueries({ queryKey: ['folders.list'] });
        },
      );
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [api, pathForFile, client]);

  return { hint, clearHint: () => setHint(null) };
}
