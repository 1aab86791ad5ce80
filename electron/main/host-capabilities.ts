/** What the desktop shell lends the application layer: native folder and save pickers and "show in folder". */
import type {
  OpenDialogOptions,
  OpenDialogReturnValue,
  SaveDialogOptions,
  SaveDialogReturnValue,
} from 'electron';
import type { HostCapabilities } from '../application/application-types.js';

export interface DialogLike {
  showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
  showSaveDialog(options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
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
    async pickSaveTarget(folder, defaultName) {
      // Folder formats (YOLO, VOC, MOT) want a new or empty folder; the others a file name.
      if (folder) {
        const answer = await dialog.showOpenDialog({
          title: 'Export to folder',
          buttonLabel: 'Export here',
          properties: ['openDirectory', 'createDirectory'],
        });
        return answer.canceled ? null : (answer.filePaths[0] ?? null);
      }
      const answer = await dialog.showSaveDialog({
        title: 'Export to file',
        buttonLabel: 'Export',
        ...(defaultName ? { defaultPath: defaultName } : {}),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      });
      return answer.canceled || !answer.filePath ? null : answer.filePath;
    },
    showInFolder(path) {
      shell.showItemInFolder(path);
    },
  };
}
