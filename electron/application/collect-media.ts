/**
 * Turns the paths given on the command line into library media: each folder is a library folder
 * (or lies in one), each file is added on its own (its folder is not registered); only the roots
 * given are scanned and reconciled, and only their new files are hashed and probed; then the
 * selection is read back from the store. Bad files become per-file issues, never a failed command.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { rootHolding, NotMediaError } from '../core/library/library-roots.js';
import { FolderRefusal } from '../core/library/folder-refusal.js';
import { Library } from '../core/library/library.js';
import { isWithin } from '../core/library/path-within.js';
import type { LibraryIssue, LibraryMediaStore } from '../core/library/media-types.js';
import type { MediaReader } from '../core/store/store-ports.js';
import type { FolderRow, MediaRecord, MediaUpsert } from '../core/store/store-types.js';
import { UsageError } from './service-connection.js';

export interface Selection {
  store: MediaReader;
  library: Library;
  /** The library roots the paths given lie in (folders, or files added on their own). */
  folders: FolderRow[];
  media: MediaRecord[];
  issues: LibraryIssue[];
  /** True for a path inside what was given: a given file, or anything below a given folder. */
  contains(path: string): boolean;
  /** Scans again exactly what was given (not the rest of the roots it lies in). */
  rescan(): Promise<unknown>;
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
    if (!st) throw new UsageError(`${p}: no such file or folder.`);
    targets.push({ path: abs, isFile: st.isFile() });
  }
  return targets;
}

/** The library root holding a target: an existing one that contains it, or the target, added. */
async function rootFor(library: Library, store: LibraryMediaStore, t: Target): Promise<FolderRow> {
  const holder = rootHolding(store.folders.list(), t.path);
  if (holder) return holder;
  return t.isFile ? library.addFile(t.path) : library.addFolder(t.path);
}

export async function collectMedia(
  store: LibraryMediaStore & MediaReader,
  paths: readonly string[],
  onStage?: (text: string) => void,
  signal?: AbortSignal,
): Promise<Selection> {
  // New files are read (hash and header, once) as the scan finds them: each row is written once.
  // Rows written complete are kept as written (see selectedMedia).
  const written = new Map<number, MediaRecord>();
  const keep = (rows: readonly MediaUpsert[], ids: ArrayLike<number>) =>
    rows.forEach((r, i) => keepComplete(written, r, ids[i] as number));
  const { selection, only } = await scanPaths(store, paths, onStage, signal, true, keep);
  // What the scan could not read (other formats, clips, a file changed meanwhile) is read here.
  onStage?.('hashing and probing');
  await selection.library.hashAndProbePending(undefined, only, signal);
  // Files that failed to read or decode are kept: the plan reports them as refused, with their reason.
  return { ...selection, media: selectedMedia(selection, written) };
}

/**
 * A row the scan wrote hashed and probed (or refused): the read pass after the scan touches only
 * rows still to hash or probe, and this command holds the library's lock, so it stays as written.
 */
function keepComplete(kept: Map<number, MediaRecord>, r: MediaUpsert, id: number): void {
  if (r.contentHash === null || (r.width === null && r.status !== 'error')) return;
  // Field by field, as the store reads them back (one shape: a spread of 100k rows cost ~4x).
  kept.set(id, {
    id,
    folderId: r.folderId,
    path: r.path,
    kind: r.kind,
    size: r.size,
    mtimeMs: r.mtimeMs,
    contentHash: r.contentHash,
    width: r.width,
    height: r.height,
    orientation: r.orientation,
    durationMs: r.durationMs,
    fps: r.fps,
    status: r.status ?? 'present',
    errorCode: r.errorCode ?? null,
    errorMessage: r.errorMessage ?? null,
    fileId: r.fileId ?? null,
  });
}

/**
 * The first half of `collectMedia`: the paths become library roots and are scanned. What is left
 * to read (hash and probe) is in the roots of `only`.
 */
export async function scanPaths(
  store: LibraryMediaStore & MediaReader,
  paths: readonly string[],
  onStage?: (text: string) => void,
  signal?: AbortSignal,
  readNew = false,
  onWritten?: (rows: readonly MediaUpsert[], ids: ArrayLike<number>) => void,
): Promise<{ selection: Omit<Selection, 'media'>; only: { folderIds: number[] } }> {
  const issues: LibraryIssue[] = [];
  const library = new Library(store, { onIssue: (i) => issues.push(i) });
  const targets: Target[] = [];
  for (const t of await targetsOf(paths)) {
    try {
      await rootFor(library, store, t);
      targets.push(t);
    } catch (err) {
      if (err instanceof FolderRefusal) throw new UsageError(err.message);
      // A README among `photos/*` is skipped with a word, not a reason to refuse the rest.
      if (!(err instanceof NotMediaError)) throw err;
      issues.push({ path: t.path, code: err.code, message: err.message });
    }
  }
  if (targets.length === 0) {
    throw new UsageError(`Nothing to read: ${issues.map((i) => i.message).join(' ')}`);
  }
  // Root ids can change while adding (a file root joins a folder added after it): read them back.
  const roots = store.folders.list().filter((f) => targets.some((t) => isWithin(t.path, f.path)));
  const only = { folderIds: roots.map((f) => f.id) };
  // Each target is scanned where it is: a subfolder or a file of a large root reads only itself.
  const scans = targets.map((t) => ({
    ...(roots.find((f) => isWithin(t.path, f.path)) as FolderRow),
    within: t.path,
  }));
  const rescan = () => library.scan(scans, undefined, undefined, signal);
  onStage?.('scanning');
  await library.scan(scans, undefined, undefined, signal, readNew, onWritten);
  const contains = (p: string) =>
    targets.some((t) => (t.isFile ? p === t.path : isWithin(p, t.path)));
  return { selection: { store, library, folders: roots, issues, contains, rescan }, only };
}

/**
 * The selection's media as the store has them now (rows that failed to read included). `written`:
 * rows known to be stored as they are there; when they are most of the selection, only the ids
 * are listed and the rest read one by one (a cold plan of 100k files read every row back: ~0.2 s).
 */
export function selectedMedia(
  selection: Omit<Selection, 'media'>,
  written?: ReadonlyMap<number, MediaRecord>,
): MediaRecord[] {
  const media: MediaRecord[] = [];
  const folderIds = selection.folders.map((f) => f.id);
  const { store } = selection;
  const ids = written?.size ? store.media.listIds({ folderIds, includeErrors: true }) : undefined;
  if (written && ids && written.size * 2 >= ids.length) {
    for (const id of ids) {
      const row = written.get(id) ?? store.media.byId(id);
      if (row && selection.contains(row.path)) media.push(row);
    }
    return media;
  }
  for (const row of allOf(selection.store, folderIds))
    if (selection.contains(row.path)) media.push(row);
  return media;
}

function* allOf(store: MediaReader, folderIds: number[]): Generator<MediaRecord> {
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
