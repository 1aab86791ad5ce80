/**
 * The initial scan: an iterative readdir + stat walk with bounded concurrency, streaming entries in
 * batches. One watcher per file would cost ~7.6 KB each (DESIGN.md); a walk of 100k files is ~1 s.
 *
 * fs calls go through SlicedFs (scan-fs.ts): synchronous in short slices while they are fast.
 *
 * A library folder is a boundary: a symbolic link to a folder is never followed (a `root -> /`
 * link once indexed the whole machine); it is reported once as `linked_folder`. A link to a file
 * is taken only when its target is a regular file (the probe then decides whether it is media);
 * a link to anything else is a per-file issue. A folder reached twice (dev:ino, e.g. a bind
 * mount) is reported, never walked again. The walk itself never throws for one bad entry.
 */
import type { Dirent, Stats } from 'node:fs';
import path from 'node:path';
import type { MediaKind } from '../store/store-types.js';
import { type LibraryIssue, mediaKindOf } from './media-types.js';
import { forEachLimited, type ScanFs, SlicedFs } from './scan-fs.js';
import { fileIdOf, notAFileIssue, statIssue, UNSTATED } from './stat-later.js';

export type { ScanFs } from './scan-fs.js';

export interface ScanEntry {
  path: string;
  /** UNSTATED (with mtimeMs) for a file left to the read to stat (`statLater`). */
  size: number;
  mtimeMs: number;
  kind: MediaKind;
  /** `dev:ino` of the file read (a link's target): what serving and uploading check against. */
  fileId?: string;
}

/** Codes: folder_missing, unreadable_folder, symlink_loop, symlink_duplicate, linked_folder,
 *  link_not_a_file, vanished, broken_link, undecodable_name, unreadable_file, io_error. */
export type ScanIssue = LibraryIssue;

export interface ScanOptions {
  /** Entries per yielded array (default 1000). */
  batchSize?: number;
  /** Folders listed at once (default 4). */
  folderConcurrency?: number;
  /** stat calls in flight per folder (default 16). */
  statConcurrency?: number;
  onIssue?: (issue: ScanIssue) => void;
  /** 'auto' (default): synchronous calls while they are fast; 'async': never block the loop. */
  mode?: 'auto' | 'async';
  fs?: Partial<ScanFs>;
  /**
   * Regular files for which this is true are yielded unstated (size and mtimeMs UNSTATED, no
   * fileId): a reader that opens them anyway (read-on-scan.ts) takes those from its fstat.
   */
  statLater?: (file: string) => boolean;
}

/** Yields arrays of media entries under `root` (absolute paths) until the walk is done. */
export async function* scanFolder(
  root: string,
  options: ScanOptions = {},
): AsyncGenerator<ScanEntry[], void, undefined> {
  const walk = new Walk(path.resolve(root), options);
  const done = walk.run();
  try {
    for (;;) {
      const batch = await walk.next();
      if (!batch) break;
      yield batch;
    }
    await done;
  } finally {
    // The consumer may stop early: let the workers wind down.
    walk.stop();
    await done.catch(() => undefined);
  }
}

const MAX_QUEUED_BATCHES = 4;

class Walk {
  private readonly fs: SlicedFs;
  private readonly batchSize: number;
  private readonly dirs: string[] = [];
  private readonly visited = new Map<string, string>();
  private active = 0;
  private stopped = false;
  private finished = false;
  private current: ScanEntry[] = [];
  private readonly queue: ScanEntry[][] = [];
  private wakeWorkers: (() => void)[] = [];
  private wakeConsumer: (() => void) | undefined;
  private wakeProducers: (() => void)[] = [];

  constructor(
    private readonly root: string,
    private readonly options: ScanOptions,
  ) {
    this.fs = new SlicedFs(options.mode, options.fs);
    this.batchSize = options.batchSize ?? 1000;
  }

  async run(): Promise<void> {
    try {
      const rootStat = await this.fs.stat(this.root).catch((err: unknown) => err as Error);
      if (rootStat instanceof Error || !rootStat.isDirectory()) {
        const gone = rootStat instanceof Error && errCode(rootStat) === 'ENOENT';
        this.issue(
          this.root,
          gone ? 'folder_missing' : 'unreadable_folder',
          gone
            ? 'The folder does not exist (moved, deleted or on a drive that is not connected).'
            : `The folder cannot be read: ${rootStat instanceof Error ? rootStat.message : 'not a folder'}.`,
        );
        return;
      }
      this.visited.set(key(rootStat), this.root);
      this.dirs.push(this.root);
      const workers = this.options.folderConcurrency ?? 4;
      await Promise.all(Array.from({ length: workers }, () => this.worker()));
      if (this.current.length) this.queue.push(this.current);
      this.current = [];
    } finally {
      this.finished = true;
      this.wakeConsumer?.();
    }
  }

  stop(): void {
    this.stopped = true;
    for (const wake of [...this.wakeWorkers, ...this.wakeProducers]) wake();
  }

  /** The next batch, or undefined when the walk is over. */
  async next(): Promise<ScanEntry[] | undefined> {
    for (;;) {
      const batch = this.queue.shift();
      if (batch) {
        this.wakeProducers.splice(0).forEach((wake) => wake());
        return batch;
      }
      if (this.finished) return undefined;
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
      this.wakeConsumer = undefined;
    }
  }

  private async worker(): Promise<void> {
    while (!this.stopped) {
      const dir = this.dirs.pop();
      if (dir === undefined) {
        if (this.active === 0) break;
        await new Promise<void>((resolve) => this.wakeWorkers.push(resolve));
        continue;
      }
      this.active++;
      try {
        await this.list(dir);
      } finally {
        this.active--;
        this.wakeWorkers.splice(0).forEach((wake) => wake());
      }
    }
  }

  private async list(dir: string): Promise<void> {
    if (dir !== this.root) {
      let st: Stats;
      try {
        st = await this.fs.stat(dir);
      } catch (err) {
        return this.fsIssue(dir, err, true);
      }
      const seenAt = this.visited.get(key(st));
      if (seenAt !== undefined) {
        // Links are never followed: only a bind mount (or a filesystem loop) gets here.
        const loop = dir.startsWith(seenAt + path.sep);
        return this.issue(
          dir,
          loop ? 'symlink_loop' : 'symlink_duplicate',
          loop
            ? `This folder leads back to its own parent folder ${seenAt}; not followed.`
            : `This folder was already scanned as ${seenAt}; not scanned twice.`,
        );
      }
      this.visited.set(key(st), dir);
    }
    let dirents: Dirent[];
    try {
      dirents = await this.fs.readdir(dir);
    } catch (err) {
      return this.fsIssue(dir, err, true);
    }
    if (dirents.some((d) => d.name.includes('\uFFFD')))
      dirents = await this.dropBadNames(dir, dirents);
    // In name order, folders too (pushed last first, so popped first to last): rows reach the
    // store in about path order, and its path indexes take them ~30% faster than in readdir's
    // hash order (a cold plan of 100k files writes every row).
    dirents.sort(byName);
    const subfolders: string[] = [];
    const toStat: Pending[] = [];
    const unstatedEntries: ScanEntry[] = [];
    const { statLater } = this.options;
    for (const d of dirents) {
      const file = child(dir, d.name);
      if (d.isDirectory()) subfolders.push(file);
      else if (d.isFile()) {
        const kind = mediaKindOf(d.name);
        if (kind && statLater?.(file)) unstatedEntries.push(unstated(file, kind));
        else if (kind) toStat.push({ file, kind, link: false });
      } else if (d.isSymbolicLink()) {
        // The target decides: a media file, a folder (reported, never followed), or nothing of ours.
        toStat.push({ file, kind: mediaKindOf(d.name), link: true });
      } else if (isUnknownType(d)) {
        toStat.push({ file, kind: mediaKindOf(d.name), link: false, unknown: true });
      }
    }
    dirents = [];
    for (let i = subfolders.length - 1; i >= 0; i--) this.dirs.push(subfolders[i] as string);
    // Nothing to wait for (no stat): emitted in a plain loop, not a promise per file.
    for (const entry of unstatedEntries) {
      if (this.stopped) return;
      const behind = this.emit(entry);
      if (behind) await behind;
    }
    // Synchronous calls gain nothing from overlap; async ones hide the threadpool round trip.
    const overlap = this.fs.synchronous ? 1 : (this.options.statConcurrency ?? 16);
    await forEachLimited(toStat, overlap, async (item) => {
      if (this.stopped) return;
      const entry = await this.entryOf(item);
      const behind = entry && this.emit(entry);
      if (behind) await behind;
    });
  }

  /** The media entry of a listed file or link, or undefined (an issue is reported if it matters). */
  private async entryOf(item: Pending): Promise<ScanEntry | undefined> {
    if (item.unknown) {
      // DT_UNKNOWN (some network and FUSE filesystems): an lstat says whether it is a link.
      let own: Stats;
      try {
        own = await this.fs.lstat(item.file);
      } catch (err) {
        return void this.fsIssue(item.file, err, false);
      }
      if (own.isDirectory()) return void this.dirs.push(item.file);
      if (own.isSymbolicLink()) item = { ...item, link: true };
      else if (!own.isFile() || !item.kind) return undefined;
    }
    let st: Stats;
    try {
      st = await this.fs.stat(item.file);
    } catch (err) {
      if (item.link && errCode(err) === 'ENOENT') {
        if (item.kind)
          this.issue(item.file, 'broken_link', 'The link points to a file that does not exist.');
        return undefined;
      }
      return void this.fsIssue(item.file, err, false);
    }
    if (item.link && st.isDirectory()) {
      return void this.issue(
        item.file,
        'linked_folder',
        'Linked folder not followed: a library folder never reaches outside itself through a link (add the folder it points to instead).',
      );
    }
    if (!item.kind) return undefined;
    if (!st.isFile()) return void this.options.onIssue?.(notAFileIssue(item.file));
    return {
      path: item.file,
      size: st.size,
      mtimeMs: st.mtimeMs,
      kind: item.kind,
      fileId: fileIdOf(st),
    };
  }

  /** Node decodes invalid UTF-8 as U+FFFD, so such a path cannot be opened: report it, skip it. */
  private async dropBadNames(dir: string, dirents: Dirent[]): Promise<Dirent[]> {
    let raw: Buffer[];
    try {
      raw = await this.fs.readdirRaw(dir);
    } catch {
      return dirents;
    }
    const bad = new Map<string, number>();
    for (const name of raw) {
      const text = name.toString('utf8');
      if (Buffer.from(text, 'utf8').equals(name)) continue;
      bad.set(text, (bad.get(text) ?? 0) + 1);
      this.issue(
        path.join(dir, text),
        'undecodable_name',
        `The name is not valid UTF-8 (bytes ${name.toString('hex')}); rename the file to include it.`,
      );
    }
    return dirents.filter((d) => {
      const left = bad.get(d.name);
      if (!left) return true;
      bad.set(d.name, left - 1);
      return false;
    });
  }

  /** Returns a promise only when the consumer is behind (saves a microtask per file otherwise). */
  private emit(entry: ScanEntry): Promise<void> | undefined {
    this.current.push(entry);
    if (this.current.length < this.batchSize) return undefined;
    this.queue.push(this.current);
    this.current = [];
    this.wakeConsumer?.();
    return this.queue.length >= MAX_QUEUED_BATCHES ? this.drained() : undefined;
  }

  private async drained(): Promise<void> {
    // Backpressure: a slow consumer must not let the whole tree pile up in memory.
    while (this.queue.length >= MAX_QUEUED_BATCHES && !this.stopped) {
      await new Promise<void>((resolve) => this.wakeProducers.push(resolve));
    }
  }

  private fsIssue(file: string, err: unknown, folder: boolean): void {
    this.options.onIssue?.(statIssue(file, err, folder));
  }

  private issue(file: string, code: string, message: string): void {
    this.options.onIssue?.({ path: file, code, message });
  }
}

/** path.join without its normalisation cost (~1.5 µs a call): readdir names need none. */
const child = (dir: string, name: string) =>
  dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const key = (st: Stats) => `${st.dev}:${st.ino}`;
/** The identity of the file a path resolved to when it was read. */
export { fileIdOf };
const unstated = (file: string, kind: MediaKind): ScanEntry => ({
  path: file,
  size: UNSTATED,
  mtimeMs: UNSTATED,
  kind,
});

interface Pending {
  file: string;
  kind: MediaKind | undefined;
  link: boolean;
  /** The directory entry did not say what it is. */
  unknown?: boolean;
}
const errCode = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

/** DT_UNKNOWN (some network and FUSE filesystems): only a stat tells what the entry is. */
function isUnknownType(d: Dirent): boolean {
  const known = ['isFile', 'isDirectory', 'isSymbolicLink', 'isFIFO', 'isSocket'] as const;
  return !known.some((is) => d[is]()) && !d.isBlockDevice() && !d.isCharacterDevice();
}
