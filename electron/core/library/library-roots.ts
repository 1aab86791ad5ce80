/**
 * Library roots are folders or single files. A file given on its own (`labeldesk plan a.jpg`) is
 * a root whose path is the file: its folder is never registered, scanned or watched, so giving
 * `/etc/hostname` cannot put `/etc` in the library. Whether a root is a file is read from the disk
 * (a root row looks the same either way); a file root that vanished is recognised by its one
 * media row having the root's own path.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FolderRow, MediaUpsert } from '../store/store-types.js';
import { type LibraryMediaStore, mediaKindOf } from './media-types.js';
import { isInside, isWithin } from './path-within.js';
import { type ScanEntry, scanFolder, type ScanIssue } from './scan-folder.js';

export class NotMediaError extends Error {
  override readonly name = 'NotMediaError';
  readonly code = 'not_media';
}

/** The root that holds `abs` (itself or an enclosing folder root), if any. */
export function rootHolding(roots: readonly FolderRow[], abs: string): FolderRow | undefined {
  return roots.find((f) => isWithin(abs, f.path));
}

/** Adds a file as a root of its own, unless a root already holds it. Only media files are taken. */
export function addFileRoot(store: LibraryMediaStore, abs: string): FolderRow {
  const holder = rootHolding(store.folders.list(), abs);
  if (holder) return holder;
  if (!mediaKindOf(abs)) {
    throw new NotMediaError(`${abs} is not an image or a clip LabelDesk reads.`);
  }
  return store.folders.add(abs);
}

/**
 * File roots inside a folder being added join it: their rows move to the folder (hash, probe
 * and id kept, so nothing is read or paid again), then the file roots go.
 */
export function absorbFileRoots(store: LibraryMediaStore, folder: FolderRow): void {
  const inside = store.folders
    .list()
    .filter((f) => f.id !== folder.id && isInside(f.path, folder.path));
  for (const root of inside) {
    const moved: MediaUpsert[] = [];
    for (const { id } of store.media.snapshot(root.id).values()) {
      const row = store.media.byId(id);
      if (!row) continue;
      const { id: _id, ...rest } = row;
      moved.push({ ...rest, folderId: folder.id });
    }
    if (moved.length) store.media.upsertMany(moved);
    store.folders.remove(root.id);
  }
}

export interface RootScan {
  entries: AsyncIterable<ScanEntry[]>;
  /** Asked after the scan: true when nothing may be marked missing (an unplugged drive). */
  rootLost(): boolean;
}

/**
 * The scan of one root, or of a part of it (`target`: a subfolder or a file inside the root): a
 * folder walk, or the one entry of a file.
 */
export async function scanRoot(
  store: LibraryMediaStore,
  root: FolderRow,
  onIssue: (issue: ScanIssue) => void,
  target = root.path,
  statLater?: (file: string) => boolean,
): Promise<RootScan> {
  const info: Stats | Error = await stat(target).catch((e: unknown) => e as Error);
  // Asked only when the root cannot be read (what was it?): never a listing of its rows.
  const wasFile = () =>
    target === root.path ? wasFileRoot(store, root) : store.media.byPath(target) !== undefined;
  if (info instanceof Error ? wasFile() : info.isFile()) return fileRootScan(target, info);
  let lost = false;
  const entries = scanFolder(target, {
    onIssue: (issue) => {
      if (issue.path === target) lost = true;
      onIssue(issue);
    },
    ...(statLater ? { statLater } : {}),
  });
  return { entries, rootLost: () => lost };
}

/** Roots that are folders on disk now, or are lost and were not file roots (for watching). */
export function folderRootsOnly(
  store: LibraryMediaStore,
  roots: readonly FolderRow[],
): Promise<FolderRow[]> {
  // A lost folder is still watched: the watcher polls until it returns.
  return rootsWhere(roots, (r, s) => (s ? s.isDirectory() : !wasFileRoot(store, r)));
}

/** Roots that are folders on disk now. */
export function directoriesOnly(roots: readonly FolderRow[]): Promise<FolderRow[]> {
  return rootsWhere(roots, (_, s) => s?.isDirectory() ?? false);
}

async function rootsWhere(
  roots: readonly FolderRow[],
  keep: (root: FolderRow, info: Stats | undefined) => boolean,
): Promise<FolderRow[]> {
  const infos = await Promise.all(roots.map((r) => stat(r.path).catch(() => undefined)));
  return roots.filter((r, i) => keep(r, infos[i]));
}

/** A file root's one row is its own path (a folder has no row of its own path). */
function wasFileRoot(store: LibraryMediaStore, root: FolderRow): boolean {
  const row = store.media.byPath(root.path);
  return row !== undefined && row.folderId === root.id && row.status !== 'missing';
}

function fileRootScan(file: string, info: Stats | Error): RootScan {
  const kind = mediaKindOf(file);
  // Gone while its folder is there: the file was removed (marked missing). Folder gone too: it
  // may be a drive that is not connected, so nothing is marked.
  let lost = false;
  async function* entries(): AsyncGenerator<ScanEntry[]> {
    if (!(info instanceof Error)) {
      if (kind) yield [{ path: file, kind, size: info.size, mtimeMs: info.mtimeMs }];
      return;
    }
    lost = !(await stat(path.dirname(file)).then(
      (s) => s.isDirectory(),
      () => false,
    ));
  }
  return { entries: entries(), rootLost: () => lost };
}
