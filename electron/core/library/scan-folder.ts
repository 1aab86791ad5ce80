/**
 * The initial scan: an iterative readdir + stat walk with bounded concurrency, streaming entries in
 * batches. One watcher per file would cost ~7.6 KB each (DESIGN.md); a walk of 100k files is ~1.5 s.
 *
 * Symlinked folders are followed, but only after the real tree, so a file reachable both ways is
 * listed under its real path; a folder reached twice (dev:ino) is reported, never walked again.
 * Every problem is a per-entry issue; the walk itself never throws for one bad entry.
 */
import type { Dirent, Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MediaKind } from '../store/store-types.js';
import { type LibraryIssue, mediaKindOf } from './media-types.js';

export interface ScanEntry {
  path: string;
  size: number;
  mtimeMs: number;
  kind: MediaKind;
}

/** Codes: folder_missing, unreadable_folder, symlink_loop, symlink_duplicate, vanished,
 *  broken_link, undecodable_name, unreadable_file, io_error. */
export type ScanIssue = LibraryIssue;

/** The fs calls the walk makes; tests replace them to provoke races (a file deleted mid-scan). */
export interface ScanFs {
  readdir(dir: string): Promise<Dirent[]>;
  readdirRaw(dir: string): Promise<Buffer[]>;
  stat(file: string): Promise<Stats>;
}

export interface ScanOptions {
  /** Entries per yielded array (default 1000). */
  batchSize?: number;
  /** Folders listed at once (default 4). */
  folderConcurrency?: number;
  /** stat calls in flight per folder (default 16). */
  statConcurrency?: number;
  onIssue?: (issue: ScanIssue) => void;
  fs?: Partial<ScanFs>;
}

const nodeFs: ScanFs = {
  readdir: (dir) => readdir(dir, { withFileTypes: true }),
  readdirRaw: (dir) => readdir(dir, { encoding: 'buffer' }),
  stat: (file) => stat(file),
};

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
  private readonly fs: ScanFs;
  private readonly batchSize: number;
  private readonly dirs: string[] = [];
  /** Symlinked folders wait until the real tree is done (see the module comment). */
  private readonly linkedDirs: string[] = [];
  private readonly visited = new Map<string, string>();
  private active = 0;
  private linkedPhase = false;
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
    this.fs = { ...nodeFs, ...options.fs };
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
      // Real folders only ever come from real folders: once none is left or in progress, links start.
      if (!this.linkedPhase && this.dirs.length === 0 && this.active === 0) this.linkedPhase = true;
      const linked = this.linkedPhase;
      const dir = linked ? this.linkedDirs.pop() : this.dirs.pop();
      if (dir === undefined) {
        if (this.active === 0) break;
        await new Promise<void>((resolve) => this.wakeWorkers.push(resolve));
        continue;
      }
      this.active++;
      try {
        await this.list(dir, linked);
      } finally {
        this.active--;
        this.wakeWorkers.splice(0).forEach((wake) => wake());
      }
    }
  }

  private async list(dir: string, linked: boolean): Promise<void> {
    if (dir !== this.root) {
      let st: Stats;
      try {
        st = await this.fs.stat(dir);
      } catch (err) {
        return this.fsIssue(dir, err, true);
      }
      const seenAt = this.visited.get(key(st));
      if (seenAt !== undefined) {
        const loop = dir.startsWith(seenAt + path.sep);
        return this.issue(
          dir,
          loop ? 'symlink_loop' : 'symlink_duplicate',
          loop
            ? `A link leads back to its own parent folder ${seenAt}; not followed.`
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
    if (dirents.some((d) => d.name.includes('\uFFFD'))) dirents = await this.dropBadNames(dir, dirents);
    const toStat: { file: string; kind: MediaKind | undefined; link: boolean }[] = [];
    for (const d of dirents) {
      const file = path.join(dir, d.name);
      if (d.isDirectory()) (linked ? this.linkedDirs : this.dirs).push(file);
      else if (d.isFile()) {
        const kind = mediaKindOf(d.name);
        if (kind) toStat.push({ file, kind, link: false });
      } else if (d.isSymbolicLink() || isUnknownType(d)) {
        // The target decides: a media file, a folder to follow, or nothing of ours.
        toStat.push({ file, kind: mediaKindOf(d.name), link: true });
      }
    }
    dirents = [];
    await forEachLimited(toStat, this.options.statConcurrency ?? 16, async (item) => {
      if (this.stopped) return;
      let st: Stats;
      try {
        st = await this.fs.stat(item.file);
      } catch (err) {
        if (item.link && errCode(err) === 'ENOENT') {
          if (item.kind)
            this.issue(item.file, 'broken_link', 'The link points to a file that does not exist.');
          return;
        }
        return this.fsIssue(item.file, err, false);
      }
      if (st.isDirectory() && item.link) this.linkedDirs.push(item.file);
      else if (st.isFile() && item.kind)
        await this.emit({ path: item.file, size: st.size, mtimeMs: st.mtimeMs, kind: item.kind });
    });
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

  private async emit(entry: ScanEntry): Promise<void> {
    this.current.push(entry);
    if (this.current.length < this.batchSize) return;
    this.queue.push(this.current);
    this.current = [];
    this.wakeConsumer?.();
    // Backpressure: a slow consumer must not let the whole tree pile up in memory.
    while (this.queue.length >= MAX_QUEUED_BATCHES && !this.stopped) {
      await new Promise<void>((resolve) => this.wakeProducers.push(resolve));
    }
  }

  private fsIssue(file: string, err: unknown, folder: boolean): void {
    const code = errCode(err);
    const reason = err instanceof Error ? err.message : String(err);
    if (code === 'ENOENT') {
      return this.issue(file, 'vanished', 'It was deleted or moved while the folder was scanned.');
    }
    if (code === 'EACCES' || code === 'EPERM') {
      return folder
        ? this.issue(file, 'unreadable_folder', 'The folder cannot be opened: permission denied.')
        : this.issue(file, 'unreadable_file', 'The file cannot be read: permission denied.');
    }
    this.issue(file, 'io_error', `It cannot be read: ${reason}`);
  }

  private issue(file: string, code: string, message: string): void {
    this.options.onIssue?.({ path: file, code, message });
  }
}

const key = (st: Stats) => `${st.dev}:${st.ino}`;
const errCode = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

function isUnknownType(d: Dirent): boolean {
  return !(
    d.isFile() ||
    d.isDirectory() ||
    d.isSymbolicLink() ||
    d.isFIFO() ||
    d.isSocket() ||
    d.isBlockDevice() ||
    d.isCharacterDevice()
  );
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
