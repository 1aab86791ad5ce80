/** What the desktop shell lends the application layer: the native folder picker and "show in folder". */
import type { OpenDialogOptions, OpenDialogReturnValue } from 'electron';
import type { HostCapabilities } from '../application/application-types.js';

export interface DialogLike {
  showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
}

export interface ShellLike {
  showItemInFolder(path: string): void;
}

export function desktopHostCapabilities(dialog: DialogLike, shell: ShellLike): HostCapabilities {
  return {
    async pickFolders() {
      const answer = await dialog.showOpenDialog({
        title: 'Add folders',
        buttonLabel: 'Add',
        properties: ['openDirectory', 'multiSelections', 'createDirectory'],
      });
      return answer.canceled ? [] : answer.filePaths;
    },
    showInFolder(path) {
      shell.showItemInFolder(path);
    },
  };
}
