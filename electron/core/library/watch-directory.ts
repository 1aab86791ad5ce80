/**
 * ONE folder watched by chokidar, without its files and without its subfolders: chokidar lists the
 * folder once (its `ignored` callback sees every entry with the lstat it already made, which we
 * keep as the listing and then ignore) and holds a single watch on the folder itself: `fs.watch`
 * (inotify, kqueue, ReadDirectoryChangesW), or a stat poll of the folder for network drives.
 * Subfolders get their own watcher from the caller, so the caller decides how many are listed at
 * once (chokidar's own recursion lists every subfolder at the same time: see watch-folders.ts).
 */
import type { Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { FSWatcher } from 'chokidar';

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface DirectoryListing {
  /** Files whose names `wanted` accepts, with their size and mtime. */
  files: Map<string, FileStamp>;
  subdirs: string[];
}

export interface DirectoryWatchOptions {
  /** Stat-poll the folder instead of `fs.watch` (network drives, where no event arrives). */
  polling: boolean;
  intervalMs: number;
  /** Which file names to keep in the listing. */
  wanted: (name: string) => boolean;
  /**
   * Something changed in the folder: the child's name when the platform says which (the folder's
   * own name when the folder itself was moved or deleted), undefined when only "the folder
   * changed" is known (polling): then the caller re-reads it.
   */
  onChange: (name: string | undefined) => void;
  onError: (err: Error) => void;
}

export interface DirectoryWatch {
  readonly listing: DirectoryListing;
  close(): Promise<void>;
}

/** Resolves once the folder is listed and watched. */
export async function watchDirectory(
  dir: string,
  options: DirectoryWatchOptions,
): Promise<DirectoryWatch> {
  const listing: DirectoryListing = { files: new Map(), subdirs: [] };
  // chokidar hands `ignored` a normalised path (forward slashes): compare names, not paths.
  const self = unixPath(dir);
  let listed = false;
  const watcher = new FSWatcher({
    ignoreInitial: true,
    followSymlinks: false,
    // Atomic-save coalescing is done by the caller (files never reach chokidar's events), and
    // chokidar's `atomic` would also hide folders whose names end in `~`.
    atomic: false,
    depth: 0,
    usePolling: options.polling,
    interval: options.intervalMs,
    binaryInterval: options.intervalMs,
    ignored: (p: string, st?: Stats) => {
      // Called once without stats for the folder itself; entries come with their lstat.
      if (!st || p === self) return false;
      // chokidar lists the folder again after each change: that is not the initial listing.
      if (listed) return true;
      const name = p.slice(p.lastIndexOf('/') + 1);
      if (st.isDirectory()) listing.subdirs.push(name);
      else if (st.isFile() && options.wanted(name))
        listing.files.set(name, { size: st.size, mtimeMs: st.mtimeMs });
      // Symlinks and everything else are not watched (a rescan sees them).
      return true;
    },
  });
  watcher.on('raw', (_event, evPath, details) => {
    // fs.watch names the child (`watchedPath` is the folder); a poll names the folder only.
    const named = typeof details === 'object' && details !== null && 'watchedPath' in details;
    options.onChange(named && evPath ? evPath : undefined);
  });
  watcher.on('error', (err) =>
    options.onError(err instanceof Error ? err : new Error(String(err))),
  );
  const ready = new Promise<void>((resolve) => watcher.once('ready', resolve));
  watcher.add(dir);
  await ready;
  listed = true;
  // chokidar lists the folder before it watches it: anything created in between is caught here.
  const seen = new Set<string>([...listing.files.keys(), ...listing.subdirs]);
  try {
    for (const d of await readdir(dir, { withFileTypes: true }))
      if (!seen.has(d.name) && (d.isDirectory() || d.isFile())) options.onChange(d.name);
  } catch (err) {
    options.onError(err as Error);
  }
  return { listing, close: () => watcher.close() };
}

function unixPath(p: string): string {
  return p.replace(/\\/g, '/');
}
