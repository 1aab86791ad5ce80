/**
 * Turns the paths given on the command line into library media: each folder (or a file's folder) is
 * a library folder, scanned and reconciled; new files are hashed and probed; then the selection is
 * read back from the store. Bad files become per-file issues, never a failed command.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Library } from '../core/library/library.js';
import type { LibraryIssue } from '../core/library/media-types.js';
import type { FolderRow, LibraryStore, MediaRecord } from '../core/store/store-types.js';
import { CliUsageError } from './service-connection.js';

export interface Selection {
  store: LibraryStore;
  library: Library;
  folders: FolderRow[];
  media: MediaRecord[];
  issues: LibraryIssue[];
  /** True for a path inside what was given: a given file, or anything below a given folder. */
  contains(path: string): boolean;
}

interface Target {
  path: string;
  isFile: boolean;
}

async function targetsOf(paths: readonly string[]): Promise<Target[]> {
  const targets: Target[] = [];
  for (const p of paths) {
    const abs = path.resolve(p);
    const st = await stat(abs).catch(() => undefined);
    if (!st) throw new CliUsageError(`${p}: no such file or folder.`);
    targets.push({ path: abs, isFile: st.isFile() });
  }
  return targets;
}

/** The library folder holding `dir`: an existing one that contains it, or `dir` itself, added. */
async function folderFor(library: Library, store: LibraryStore, dir: string): Promise<FolderRow> {
  const holder = store.folders
    .list()
    .find((f) => dir === f.path || dir.startsWith(f.path + path.sep));
  return holder ?? library.addFolder(dir);
}

export async function collectMedia(
  store: LibraryStore,
  paths: readonly string[],
  onStage?: (text: string) => void,
): Promise<Selection> {
  const issues: LibraryIssue[] = [];
  const library = new Library(store, { onIssue: (i) => issues.push(i) });
  const targets = await targetsOf(paths);
  const folders = new Map<number, FolderRow>();
  for (const t of targets) {
    const folder = await folderFor(library, store, t.isFile ? path.dirname(t.path) : t.path);
    folders.set(folder.id, folder);
  }
  onStage?.('scanning');
  await library.scanAll();
  // Each new file is read once for both its hash and its header.
  onStage?.('hashing and probing');
  await library.hashAndProbePending();
  const contains = (p: string) =>
    targets.some((t) =>
      t.isFile ? p === t.path : p === t.path || p.startsWith(t.path + path.sep),
    );
  const selection = { store, library, folders: [...folders.values()], issues, contains };
  // Files that failed to read or decode are kept: the plan reports them as refused, with their reason.
  return { ...selection, media: selectedMedia(selection) };
}

/** The selection's media as the store has them now (rows that failed to read included). */
export function selectedMedia(selection: Omit<Selection, 'media'>): MediaRecord[] {
  const media: MediaRecord[] = [];
  const folderIds = selection.folders.map((f) => f.id);
  for (const row of allOf(selection.store, folderIds))
    if (selection.contains(row.path)) media.push(row);
  return media;
}

function* allOf(store: LibraryStore, folderIds: number[]): Generator<MediaRecord> {
  let afterPath: string | undefined;
  for (;;) {
    const page = store.media.list({
      folderIds,
      includeErrors: true,
      limit: 2000,
      ...(afterPath ? { afterPath } : {}),
    });
    yield* page;
    if (page.length < 2000) return;
    afterPath = page[page.length - 1]?.path;
  }
}
