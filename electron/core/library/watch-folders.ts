/**
 * Live changes under the library folders, with one inotify watch per FOLDER, not per file.
 *
 * Decision, measured here on 100,000 files in 1,011 folders (2 cores, Node 20, chokidar 4.0.3):
 *   chokidar, default:                      13.8 s to `ready`, 635 MB RSS (DESIGN.md: 13.5 s, 760 MB)
 *   chokidar, `ignored` = every file:        6.9 s to `ready`, 270 MB RSS — it still stats each
 *                                            file to evaluate `ignored`, then drops file events
 *   fs.watch per folder + names in memory:   0.27 s, +10 MB RSS, 1,011 of ~190k inotify watches
 * So: `fs.watch` on each folder (non-recursive; the kernel reports which child changed), the
 * media names of each folder in a Set, and a stat of only the child an event names.
 *
 * A file is reported only once its size and mtime are equal across two checks `stableMs` apart,
 * so a half-written file is never picked up. Renames arrive as removed + added. Symlinked folders
 * are not watched (the next scan picks up their changes). A lost root is polled until it returns.
 */
import { type FSWatcher, watch } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { MediaKind } from '../store/store-types.js';
import { type LibraryIssue, mediaKindOf } from './media-types.js';

export type WatchEvent =
  | {
      type: 'added' | 'changed';
      root: string;
      path: string;
      kind: MediaKind;
      size: number;
      mtimeMs: number;
    }
  | { type: 'removed'; root: string; path: string; kind: MediaKind };

export interface WatchOptions {
  /** Time between the two equal stats that mark a write as finished (default 400 ms). */
  stableMs?: number;
  /** How often a root that disappeared is looked for again (default 2000 ms). */
  rootPollMs?: number;
  onIssue?: (issue: LibraryIssue) => void;
}

export interface FolderWatcher {
  /** Resolves once every root is listed and watched: changes from then on are reported. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

interface Folder {
  root: string;
  watcher: FSWatcher;
  /** Media file names known in this folder. */
  files: Set<string>;
  subdirs: Set<string>;
}

interface Pending {
  timer: NodeJS.Timeout;
  size: number;
  mtimeMs: number;
}

export function watchFolders(
  roots: readonly string[],
  onEvent: (event: WatchEvent) => void,
  options: WatchOptions = {},
): FolderWatcher {
  const stableMs = options.stableMs ?? 400;
  const folders = new Map<string, Folder>();
  const pending = new Map<string, Pending>();
  const polls = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const issue = (p: string, code: string, message: string) =>
    options.onIssue?.({ path: p, code, message });

  /** Watches `dir` and everything below it; `announce` reports its media files as added. */
  async function addTree(dir: string, root: string, announce: boolean): Promise<void> {
    const stack = [dir];
    while (stack.length && !closed) {
      const current = stack.pop() as string;
      if (folders.has(current)) continue;
      let watcher: FSWatcher;
      try {
        // Watch before listing: a file created in between is then listed, or reported, or both.
        watcher = watch(current, { persistent: true }, (_type, name) => {
          if (name !== null) onChange(current, name.toString());
        });
      } catch (err) {
        if (current === root) lostRoot(root);
        else issue(current, 'unwatchable_folder', `Changes here cannot be watched: ${String(err)}`);
        continue;
      }
      watcher.on('error', () => void checkFolder(current));
      const folder: Folder = { root, watcher, files: new Set(), subdirs: new Set() };
      folders.set(current, folder);
      let dirents;
      try {
        dirents = await readdir(current, { withFileTypes: true });
      } catch {
        void checkFolder(current);
        continue;
      }
      for (const d of dirents) {
        if (d.isDirectory()) {
          folder.subdirs.add(d.name);
          stack.push(path.join(current, d.name));
        } else if (d.isFile() && mediaKindOf(d.name)) {
          if (announce) settle(current, d.name);
          else folder.files.add(d.name);
        }
      }
    }
  }

  function onChange(dir: string, name: string): void {
    if (closed) return;
    // A watched folder reporting itself (deleted or moved away) names its own base name.
    if (name === path.basename(dir)) void checkFolder(dir);
    void checkChild(dir, name);
  }

  async function checkChild(dir: string, name: string): Promise<void> {
    const file = path.join(dir, name);
    if (pending.has(file)) return; // the running stability check will see this change
    const st = await lstat(file).catch(() => undefined);
    const folder = folders.get(dir);
    if (closed || !folder) return;
    if (!st) {
      if (folder.subdirs.delete(name)) removeTree(file);
      else if (folder.files.delete(name)) emitRemoved(folder.root, file);
    } else if (st.isDirectory()) {
      if (!folder.subdirs.has(name)) {
        folder.subdirs.add(name);
        await addTree(file, folder.root, true);
      }
    } else if (st.isFile() && mediaKindOf(name)) {
      settle(dir, name, st.size, st.mtimeMs);
    }
  }

  /** Reports the file once two stats `stableMs` apart agree. */
  function settle(dir: string, name: string, size = -1, mtimeMs = -1): void {
    const file = path.join(dir, name);
    if (pending.has(file) || closed) return;
    const entry: Pending = { timer: setTimeout(tick, stableMs), size, mtimeMs };
    pending.set(file, entry);
    async function tick(): Promise<void> {
      const st = await lstat(file).catch(() => undefined);
      const folder = folders.get(dir);
      if (closed || pending.get(file) !== entry) return;
      if (!folder || !st?.isFile()) {
        pending.delete(file);
        if (folder?.files.delete(name)) emitRemoved(folder.root, file);
        return;
      }
      if (st.size !== entry.size || st.mtimeMs !== entry.mtimeMs) {
        entry.size = st.size;
        entry.mtimeMs = st.mtimeMs;
        entry.timer = setTimeout(tick, stableMs);
        return;
      }
      pending.delete(file);
      const type = folder.files.has(name) ? 'changed' : 'added';
      folder.files.add(name);
      const kind = mediaKindOf(name) as MediaKind;
      onEvent({ type, root: folder.root, path: file, kind, size: st.size, mtimeMs: st.mtimeMs });
    }
  }

  /** The folder itself may be gone (deleted, moved out, unmounted). */
  async function checkFolder(dir: string): Promise<void> {
    const st = await lstat(dir).catch(() => undefined);
    if (closed || st?.isDirectory()) return;
    const folder = folders.get(dir);
    if (!folder) return;
    removeTree(dir);
    if (dir === folder.root) lostRoot(dir);
    else folders.get(path.dirname(dir))?.subdirs.delete(path.basename(dir));
  }

  function removeTree(dir: string): void {
    const stack = [dir];
    while (stack.length) {
      const current = stack.pop() as string;
      const folder = folders.get(current);
      if (!folder) continue;
      folder.watcher.close();
      folders.delete(current);
      for (const name of folder.files) emitRemoved(folder.root, path.join(current, name));
      for (const sub of folder.subdirs) stack.push(path.join(current, sub));
    }
    for (const [file, p] of pending) {
      if (file.startsWith(dir + path.sep)) {
        clearTimeout(p.timer);
        pending.delete(file);
      }
    }
  }

  function emitRemoved(root: string, file: string): void {
    onEvent({ type: 'removed', root, path: file, kind: mediaKindOf(file) as MediaKind });
  }

  function lostRoot(root: string): void {
    if (closed || polls.has(root)) return;
    issue(root, 'folder_missing', 'The folder is gone; it is watched for again every few seconds.');
    const poll = setInterval(() => {
      void lstat(root).then(
        async (st) => {
          if (closed || !st.isDirectory() || !polls.has(root)) return;
          clearInterval(poll);
          polls.delete(root);
          await addTree(root, root, true);
        },
        () => undefined,
      );
    }, options.rootPollMs ?? 2000);
    polls.set(root, poll);
  }

  const ready = (async () => {
    for (const root of roots.map((r) => path.resolve(r))) {
      const st = await lstat(root).catch(() => undefined);
      if (st?.isDirectory()) await addTree(root, root, false);
      else lostRoot(root);
    }
  })();

  return {
    ready,
    async close() {
      closed = true;
      await ready.catch(() => undefined);
      for (const folder of folders.values()) folder.watcher.close();
      folders.clear();
      for (const p of pending.values()) clearTimeout(p.timer);
      pending.clear();
      for (const poll of polls.values()) clearInterval(poll);
      polls.clear();
    },
  };
}
