/**
 * Live changes under the library folders through chokidar: one watch per FOLDER, not per file.
 *
 * Measured with `npm run bench watch` (folders of 1,000 files, warm cache, each configuration in
 * its own process; 2 shared cores, Node 20, chokidar 5.0.0; times vary with the machine's load):
 *   chokidar defaults, 10k files:                  1.1–2 s to ready, +109 MB RSS, 10,012 watches
 *   one chokidar watcher per root, files ignored,
 *   100k files:                                    2.2–4.8 s to ready, +334 MB RSS, 101 watches
 *   this module (a chokidar watcher per folder,
 *   depth 0, files ignored), 100k files:           1.4 s to ready idle (2.6–4 s, CPU 2.4 s, while
 *                                                  other tests load the cores), +56 MB RSS
 *   10,000 folders of 10 files:                    4.2 s and +116 MB: ~11 KB per folder
 *   (the scanner, for comparison: 0.5–1 s, +45 MB; it only lists, it does not watch)
 * chokidar lstat()s every entry while listing (readdirp `alwaysStat`, not an option) and its own
 * recursion lists EVERY subfolder at once (100 folders × batches of 256 lstat promises in
 * flight), which outlive young-generation GC: the heap reaches ~230 MB at ready, 3 MB of it live.
 * Handing chokidar one folder at a time, two listed at once, does the same lstat work without
 * the pile-up. That lstat is not wasted: chokidar's `ignored` callback hands us each file's size
 * and mtime, the "known" state later changes are compared against (~16 MB for 100k names).
 * chokidar still re-lists a folder (lstat of each entry) at most once a second while it changes.
 *
 * Each folder's watcher reports `raw` events; the child they name is lstat-ed (a poll names no
 * child: the folder is re-read against what is known, names + size/mtime). A file is reported only
 * once its size and mtime are equal across two checks `stableMs` apart, so a half-written file is
 * never picked up; a file that disappears is reported removed only if still gone then, so an
 * atomic save (rename over, or unlink then write) is one "changed". Renames arrive as removed +
 * added. Symlinks are not followed (the next scan sees them). A lost root is polled for until it
 * returns (its files are not reported removed meanwhile: it may be a drive unplugged). Polled
 * roots (`pollingFor`, for network drives) see files added, removed, renamed or replaced (the
 * folder's mtime changes); a file rewritten in place there is seen by the next scan.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { MediaKind } from '../store/store-types.js';
import { type LibraryIssue, mediaKindOf } from './media-types.js';
import { fileIdOf } from './scan-folder.js';
import { forEachLimited } from './scan-fs.js';
import { type DirectoryWatch, type FileStamp, watchDirectory } from './watch-directory.js';
import { WriteFinish } from './write-finish.js';

export type WatchEvent =
  | {
      type: 'added' | 'changed';
      root: string;
      path: string;
      kind: MediaKind;
      size: number;
      mtimeMs: number;
      /** `dev:ino` of the regular file reported (the watcher never reports links). */
      fileId?: string;
    }
  | { type: 'removed'; root: string; path: string; kind: MediaKind };

export interface WatchOptions {
  /** Time between the two equal stats that mark a write as finished (default 400 ms). */
  stableMs?: number;
  /** How often a root that disappeared is looked for again (default 2000 ms). */
  rootPollMs?: number;
  /** Roots (absolute paths) to stat-poll instead of fs.watch: network drives send no events. */
  pollingFor?: (root: string) => boolean;
  /** Poll interval of each folder of a polled root (default 1000 ms). Under a polled root the
   *  write-finish window is at least this long: network mounts cache attributes (CIFS: 1 s). */
  pollIntervalMs?: number;
  /** Folders listed at once (default 2; more only piles up lstat calls, see the top comment). */
  concurrency?: number;
  onIssue?: (issue: LibraryIssue) => void;
  /** A root went missing (deleted, moved away, unmounted: watching it is paused) or came back. */
  onRootState?: (root: string, present: boolean) => void;
}

export interface FolderWatcher {
  /** Resolves once every root is listed and watched: changes from then on are reported. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

interface Folder {
  root: string;
  ino: number;
  /** Undefined while chokidar lists the folder; changes seen meanwhile wait in `early`. */
  watch?: DirectoryWatch;
  early?: Set<string | undefined>;
  /** Media files known in this folder: name → size and mtime last listed or reported. */
  files: Map<string, FileStamp>;
  subdirs: Set<string>;
}

export function watchFolders(
  roots: readonly string[],
  onEvent: (event: WatchEvent) => void,
  options: WatchOptions = {},
): FolderWatcher {
  const stableMs = options.stableMs ?? 400;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const concurrency = options.concurrency ?? 2;
  const polled = new Map<string, boolean>();
  const folders = new Map<string, Folder>();
  const writes = new WriteFinish();
  const rereads = new Map<string, boolean>();
  const polls = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const issue = (p: string, code: string, message: string) =>
    options.onIssue?.({ path: p, code, message });
  const isPolled = (root: string) => polled.get(root) ?? false;

  /** Watches `top` and every folder below it, `concurrency` folders listed at a time. */
  function addTree(top: string, root: string, announce: boolean): Promise<void> {
    const queue = [top];
    let active = 0;
    return new Promise((resolve) => {
      const pump = () => {
        while (active < concurrency && queue.length && !closed) {
          active++;
          void addFolder(queue.pop() as string, root, announce, queue).finally(() => {
            active--;
            pump();
          });
        }
        if (active === 0 && (closed || !queue.length)) resolve();
      };
      pump();
    });
  }

  /** Lists and watches one folder; its subfolders go to `queue`; `announce` reports its media. */
  async function addFolder(dir: string, root: string, announce: boolean, queue: string[]) {
    const st = await lstat(dir).catch(() => undefined);
    if (closed || folders.has(dir)) return;
    if (!st?.isDirectory()) return void (dir === root && lostRoot(root));
    const folder: Folder = {
      root,
      ino: st.ino,
      early: new Set(),
      files: new Map(),
      subdirs: new Set(),
    };
    folders.set(dir, folder);
    let watch: DirectoryWatch;
    try {
      watch = await watchDirectory(dir, {
        polling: isPolled(root),
        intervalMs: pollIntervalMs,
        wanted: (name) => mediaKindOf(name) !== undefined,
        onChange: (name) => onChange(dir, folder, name),
        onError: (err) => onWatchError(dir, folder, err),
      });
    } catch (err) {
      if (folders.get(dir) === folder) folders.delete(dir);
      return issue(dir, 'unwatchable_folder', `Changes here cannot be watched: ${String(err)}`);
    }
    if (closed || folders.get(dir) !== folder) return void watch.close();
    folder.watch = watch;
    for (const name of watch.listing.subdirs) {
      folder.subdirs.add(name);
      queue.push(path.join(dir, name));
    }
    if (announce) for (const [name, stamp] of watch.listing.files) settle(dir, name, stamp);
    else folder.files = watch.listing.files;
    const early = folder.early ?? new Set();
    folder.early = undefined;
    for (const name of early) onChange(dir, folder, name);
  }

  function onChange(dir: string, folder: Folder, name: string | undefined): void {
    if (closed || folders.get(dir) !== folder) return;
    if (folder.early) return void folder.early.add(name);
    if (name === undefined) return void reread(dir);
    // A watched folder reporting itself (deleted or moved away) names its own base name.
    if (name === path.basename(dir)) void checkFolder(dir);
    void checkChild(dir, name);
  }

  function onWatchError(dir: string, folder: Folder, err: Error): void {
    if (closed || folders.get(dir) !== folder) return;
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOSPC'
        ? "the system's limit of watched folders is reached (fs.inotify.max_user_watches)"
        : err.message;
    issue(dir, 'unwatchable_folder', `Changes here may not be seen: ${why}`);
    void checkFolder(dir);
  }

  async function checkChild(dir: string, name: string): Promise<void> {
    const file = path.join(dir, name);
    if (writes.has(file)) return; // the running write-finish check will see this change
    const st = await lstat(file).catch(() => undefined);
    const folder = folders.get(dir);
    if (closed || !folder) return;
    if (st?.isDirectory()) {
      if (!folder.subdirs.has(name)) {
        folder.subdirs.add(name);
        await addTree(file, folder.root, true);
      } else if (folders.get(file)?.ino !== undefined && folders.get(file)?.ino !== st.ino) {
        await replaced(file, folder.root); // removed and created again under the same name
      }
    } else if (!st && folder.subdirs.delete(name)) {
      removeTree(file);
    } else if ((st?.isFile() && mediaKindOf(name)) || folder.files.has(name)) {
      // Gone or replaced by something else: reported removed if still so `stableMs` later.
      settle(dir, name, st?.isFile() ? st : undefined);
    }
  }

  /** A polled folder changed (or a platform named no child): compare it with what is known. */
  async function reread(dir: string): Promise<void> {
    if (rereads.has(dir)) return void rereads.set(dir, true);
    rereads.set(dir, false);
    try {
      const folder = folders.get(dir);
      const dirents = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
      if (!dirents) return void (await checkFolder(dir));
      if (closed || !folder || folders.get(dir) !== folder) return;
      const present = new Set(dirents.map((d) => d.name));
      // A few lstats in flight: a polled folder is usually on a network drive, where each waits.
      await forEachLimited(dirents, 8, async (d) => {
        if (d.isDirectory() && !folder.subdirs.has(d.name)) void checkChild(dir, d.name);
        if (!d.isFile() || !mediaKindOf(d.name)) return;
        const known = folder.files.get(d.name);
        const st = known && (await lstat(path.join(dir, d.name)).catch(() => undefined));
        if (!known || !st || st.size !== known.size || st.mtimeMs !== known.mtimeMs)
          settle(dir, d.name, st || undefined);
      });
      for (const name of [...folder.subdirs, ...folder.files.keys()])
        if (!present.has(name)) void checkChild(dir, name);
    } finally {
      const again = rereads.get(dir);
      rereads.delete(dir);
      if (again && !closed) void reread(dir);
    }
  }

  /** Reports the file once its writes are finished, if it differs from what is known. */
  function settle(dir: string, name: string, first?: FileStamp): void {
    const folder = folders.get(dir);
    if (closed || !folder) return;
    const file = path.join(dir, name);
    const waitMs = isPolled(folder.root) ? Math.max(stableMs, pollIntervalMs) : stableMs;
    writes.watch(
      file,
      waitMs,
      (st) => {
        const folder = folders.get(dir);
        if (closed || !folder) return;
        const known = folder.files.get(name);
        if (!st) return void (folder.files.delete(name) && emitRemoved(folder.root, file));
        if (known?.size === st.size && known.mtimeMs === st.mtimeMs) return; // e.g. a chmod
        folder.files.set(name, { size: st.size, mtimeMs: st.mtimeMs });
        const kind = mediaKindOf(name) as MediaKind;
        const type = known ? 'changed' : 'added';
        onEvent({
          type,
          root: folder.root,
          path: file,
          kind,
          size: st.size,
          mtimeMs: st.mtimeMs,
          fileId: fileIdOf(st),
        });
      },
      first,
    );
  }

  /** The folder itself may be gone (deleted, moved out, unmounted) or replaced. */
  async function checkFolder(dir: string): Promise<void> {
    const st = await lstat(dir).catch(() => undefined);
    const folder = folders.get(dir);
    if (closed || !folder || (st?.isDirectory() && st.ino === folder.ino)) return;
    if (st?.isDirectory()) return replaced(dir, folder.root);
    // A root that is gone may be a drive unplugged: its files are not reported removed, so
    // nothing of them changes in the library until it returns (then it is rescanned).
    removeTree(dir, dir !== folder.root);
    if (dir === folder.root) lostRoot(dir);
    else folders.get(path.dirname(dir))?.subdirs.delete(path.basename(dir));
  }

  async function replaced(dir: string, root: string): Promise<void> {
    removeTree(dir);
    await addTree(dir, root, true);
  }

  function removeTree(dir: string, report = true): void {
    const stack = [dir];
    while (stack.length) {
      const current = stack.pop() as string;
      const folder = folders.get(current);
      if (!folder) continue;
      void folder.watch?.close();
      folders.delete(current);
      if (report)
        for (const name of folder.files.keys()) emitRemoved(folder.root, path.join(current, name));
      for (const sub of folder.subdirs) stack.push(path.join(current, sub));
    }
    writes.cancelUnder(dir);
  }

  function emitRemoved(root: string, file: string): void {
    onEvent({ type: 'removed', root, path: file, kind: mediaKindOf(file) as MediaKind });
  }

  function lostRoot(root: string): void {
    if (closed || polls.has(root)) return;
    issue(root, 'folder_missing', 'The folder is gone; it is watched for again every few seconds.');
    options.onRootState?.(root, false);
    const poll = setInterval(() => {
      void lstat(root).then(
        async (st) => {
          if (closed || !st.isDirectory() || !polls.has(root)) return;
          clearInterval(poll);
          polls.delete(root);
          await addTree(root, root, true);
          options.onRootState?.(root, true);
        },
        () => undefined,
      );
    }, options.rootPollMs ?? 2000);
    polls.set(root, poll);
  }

  const ready = (async () => {
    for (const root of roots.map((r) => path.resolve(r))) {
      polled.set(root, options.pollingFor?.(root) ?? false);
      await addTree(root, root, false);
    }
  })();

  return {
    ready,
    async close() {
      closed = true;
      await ready.catch(() => undefined);
      const watches = [...folders.values()].map((f) => f.watch?.close());
      folders.clear();
      writes.clear();
      for (const poll of polls.values()) clearInterval(poll);
      polls.clear();
      await Promise.all(watches);
    },
  };
}
