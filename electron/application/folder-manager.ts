/**
 * Library folders for the app: add, remove, per-folder settings (watch, poll, auto-label), and the
 * ingest queue that scans a folder, then hashes and probes what is new, in the background. The UI
 * sees new files as soon as the scan stores them; hashing and probing follow without blocking it.
 */
import { z } from 'zod';
import { rootHolding } from '../core/library/library-roots.js';
import { FolderRefusal } from '../core/library/folder-refusal.js';
import { Library } from '../core/library/library.js';
import type { LibraryIssue, LibraryMediaStore } from '../core/library/media-types.js';
import type { WatchEvent } from '../core/library/watch-folders.js';
import type { FolderTotals } from '../core/library-view/library-view.js';
import type { AsyncView } from '../core/library-view/library-view-client.js';
import type { SettingsPort } from '../core/store/store-ports.js';
import type { FolderRow } from '../core/store/store-types.js';
import { LabelDeskError, type FolderView } from '../shared/contract/index.js';
import type { AppEvents } from './app-events.js';
import { readSetting } from './stored-setting.js';

const FolderSettings = z.object({
  watching: z.boolean(),
  polling: z.boolean(),
  autoLabel: z.boolean(),
});
export type FolderSettings = z.infer<typeof FolderSettings>;

/** A file changed this recently may still be being written (longer than the watcher's window). */
const SETTLE_MS = 2000;

const DEFAULTS: FolderSettings = { watching: true, polling: false, autoLabel: false };
const settingKey = (id: number) => `app.folder.${id}`;

export interface FolderManagerOptions {
  store: LibraryMediaStore & SettingsPort;
  view: AsyncView;
  events: AppEvents;
  /** The solution counts are shown for (labelled / new). */
  solution: () => string;
  /** New or changed files settled in a watched folder with auto-label on. */
  onArrived: (folderId: number, mediaIds: number[]) => void;
  log: (line: string) => void;
}

export class FolderManager {
  readonly library: Library;
  private readonly scanning = new Set<number>();
  /**
   * Folders whose scan left a file still being written for a scan moments later: shown as still
   * scanning, so a person never sees a folder done and then one more file appear.
   */
  private readonly settling = new Set<number>();
  private queue: Promise<void> = Promise.resolve();
  private watcher: { close(): Promise<void> } | undefined;
  private watching: Promise<void> = Promise.resolve();
  private closed = false;
  /** Aborted on close: a walk, a hashing pass or a watcher being set up stops at once. */
  private readonly quitting = new AbortController();
  private readonly changed;
  private arrived = new Map<number, Set<string>>();
  private arrivalTimer: NodeJS.Timeout | undefined;
  /** What the last scan of each folder left out (linked folders…), by path: each listed once. */
  private readonly scanIssues = new Map<number, Map<string, LibraryIssue>>();
  private readonly missing = new Set<number>();

  constructor(private readonly o: FolderManagerOptions) {
    this.library = new Library(o.store, {
      onIssue: (issue) => this.onIssue(issue),
      onRootState: (root, present) => this.onRootState(root, present),
    });
    this.changed = o.events.throttled('library.changed', 250);
  }

  settings(id: number): FolderSettings {
    const saved = readSetting(this.o.store, settingKey(id), FolderSettings.partial(), this.o.log);
    return { ...DEFAULTS, ...saved };
  }

  async list(): Promise<FolderView[]> {
    const all = await this.o.view.folderTotals(this.o.solution());
    const totals = new Map(all.map((t) => [t.folderId, t]));
    return this.o.store.folders.list().map((f) => this.viewOf(f, totals.get(f.id)));
  }

  async add(path: string): Promise<FolderView> {
    let row: FolderRow;
    try {
      row = await this.library.addFolder(path);
    } catch (err) {
      const code = (err as { code?: string }).code === 'ENOENT' ? 'not_found' : 'invalid_folder';
      if (err instanceof FolderRefusal) throw new LabelDeskError(err.code, err.message);
      const message =
        code === 'not_found' ? `${path}: there is no such folder.` : (err as Error).message;
      throw new LabelDeskError(code, message);
    }
    this.ingest([row.id]);
    // Watching starts in the background: listing a large tree must not hold up the answer.
    void this.rewatch();
    this.foldersChanged();
    return this.viewById(row.id);
  }

  async remove(id: number): Promise<void> {
    this.known(id);
    await this.library.removeFolder(id);
    this.o.store.settings.set(settingKey(id), JSON.stringify(DEFAULTS));
    await this.rewatch();
    this.foldersChanged();
    this.changed({ folderIds: [id], at: Date.now() });
  }

  async setWatch(id: number, patch: Partial<FolderSettings>): Promise<FolderView> {
    const row = this.known(id);
    const next = { ...this.settings(id), ...patch };
    this.o.store.settings.set(settingKey(id), JSON.stringify(next));
    await this.rewatch();
    this.foldersChanged();
    return this.viewById(row.id);
  }

  /** Entries the scans left out, then the files that could not be read or decoded. */
  async issues(id: number, limit: number): Promise<LibraryIssue[]> {
    const left = [...(this.scanIssues.get(id)?.values() ?? [])].slice(0, limit);
    const unreadable = await this.o.view.folderErrors(id, limit - left.length);
    return [...left, ...(left.length < limit ? unreadable : [])];
  }

  rescan(id: number): Promise<FolderView> {
    this.known(id);
    this.ingest([id]);
    return this.viewById(id);
  }

  private async viewById(id: number): Promise<FolderView> {
    const view = (await this.list()).find((f) => f.id === id);
    if (!view)
      throw new LabelDeskError('unknown_folder', 'That folder is no longer in the library.');
    return view;
  }

  /** Scans every folder once at start (files may have changed while the app was closed). */
  async start(): Promise<void> {
    const ids = this.o.store.folders.list().map((f) => f.id);
    if (ids.length) this.ingest(ids);
    await this.rewatch();
  }

  /**
   * Stops at once, whatever is under way: what was stored stays (each page is its own
   * transaction), a walk cut short marks nothing missing, and the next start redoes the rest.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.arrivalTimer);
    this.quitting.abort(new Error('closing'));
    await this.watching;
    await this.watcher?.close();
    await this.queue.catch(() => undefined);
  }

  /** Resolves when every queued scan, hash and probe has finished (tests, benchmarks). */
  idle(): Promise<void> {
    return this.queue;
  }

  private ingest(folderIds: number[]): void {
    for (const id of folderIds) this.scanning.add(id);
    this.foldersChanged();
    this.queue = this.queue.then(async () => {
      if (this.closed) return;
      try {
        const roots = this.o.store.folders.list().filter((f) => folderIds.includes(f.id));
        // A whole-folder scan lists again what it leaves out, and finds the folder or not.
        for (const id of folderIds) {
          this.scanIssues.delete(id);
          this.missing.delete(id);
        }
        // A file still being written is left for the watcher (or a scan moments later) to take
        // once complete: a rescan must never take in half a copy.
        let unsettled = false;
        const signal = this.quitting.signal;
        await this.library.scan(
          roots,
          () => this.changed({ folderIds, at: Date.now() }),
          { ms: SETTLE_MS, onUnsettled: () => (unsettled = true) },
          signal,
        );
        if (unsettled) this.rescanLater(folderIds);
        this.changed({ folderIds, at: Date.now() });
        await this.library.hashAndProbePending(undefined, {}, signal);
      } catch (err) {
        if (!this.closed) this.o.log(`scan failed: ${(err as Error).message}`);
      } finally {
        for (const id of folderIds) this.scanning.delete(id);
        this.changed({ folderIds, at: Date.now() });
        this.foldersChanged();
      }
    });
  }

  private onIssue(issue: LibraryIssue): void {
    const root = rootHolding(this.o.store.folders.list(), issue.path);
    if (!root) return;
    if (issue.code === 'folder_missing' && issue.path === root.path) {
      this.missing.add(root.id);
      return this.foldersChanged();
    }
    const issues = this.scanIssues.get(root.id) ?? new Map<string, LibraryIssue>();
    issues.set(issue.path, issue);
    this.scanIssues.set(root.id, issues);
    this.foldersChanged();
  }

  /** A watched folder went missing (watching pauses), or came back: then it is scanned again. */
  private onRootState(rootPath: string, present: boolean): void {
    const root = this.o.store.folders.list().find((f) => f.path === rootPath);
    if (!root) return;
    if (!present) this.missing.add(root.id);
    else {
      this.missing.delete(root.id);
      this.ingest([root.id]);
    }
    this.foldersChanged();
  }

  /** Folders whose scan met files still being written are scanned again once they settle. */
  private rescanLater(folderIds: number[]): void {
    for (const id of folderIds) this.settling.add(id);
    const timer = setTimeout(() => {
      for (const id of folderIds) this.settling.delete(id);
      if (!this.closed) this.ingest(folderIds);
    }, SETTLE_MS * 2);
    timer.unref();
  }

  /** Rewatches one at a time, in order: the last folder list always wins. */
  private rewatch(): Promise<void> {
    this.watching = this.watching
      .then(() => this.watchNow())
      .catch((err: unknown) => {
        if (!this.closed) this.o.log(`watching failed: ${(err as Error).message}`);
      });
    return this.watching;
  }

  private async watchNow(): Promise<void> {
    await this.watcher?.close();
    this.watcher = undefined;
    const watched = this.o.store.folders.list().filter((f) => this.settings(f.id).watching);
    if (watched.length === 0 || this.closed) return;
    const roots = new Map(watched.map((f) => [f.path, f.id]));
    // Only the folders with Watch on; those marked as network drives are polled.
    const polled = new Set(watched.filter((f) => this.settings(f.id).polling).map((f) => f.path));
    this.watcher = await this.library.watch((event) => this.onWatchEvent(roots, event), {
      folderIds: watched.map((f) => f.id),
      pollingFor: (folderPath) => polled.has(folderPath),
      signal: this.quitting.signal,
    });
  }

  private onWatchEvent(roots: Map<string, number>, event: WatchEvent): void {
    const folderId = roots.get(event.root);
    if (folderId === undefined) return;
    this.changed({ folderIds: [folderId], at: Date.now() });
    if (event.type === 'removed') return;
    const paths = this.arrived.get(folderId) ?? new Set();
    paths.add(event.path);
    this.arrived.set(folderId, paths);
    clearTimeout(this.arrivalTimer);
    this.arrivalTimer = setTimeout(() => this.flushArrivals(), 300);
  }

  /** Files the watcher reported complete: hash and probe them, then offer them to auto-label. */
  private flushArrivals(): void {
    const batch = this.arrived;
    this.arrived = new Map();
    this.queue = this.queue.then(async () => {
      if (this.closed) return;
      await this.library.hashAndProbePending(undefined, {}, this.quitting.signal);
      for (const [folderId, paths] of batch) {
        const ids: number[] = [];
        for (const p of paths) {
          const m = this.o.store.media.byPath(p);
          if (m?.status === 'present') ids.push(m.id);
        }
        this.changed({ folderIds: [folderId], at: Date.now() });
        if (ids.length && this.settings(folderId).autoLabel) this.o.onArrived(folderId, ids);
      }
      this.foldersChanged();
    });
  }

  /** Folder counts change with every scan and answer: sent at most every 500 ms. */
  private foldersChanged(): void {
    this.foldersEvent();
  }

  private readonly foldersEvent = debounce(500, () => {
    void this.list().then(
      (list) => this.o.events.emit('folders.changed', list),
      () => undefined,
    );
  });

  private known(id: number): FolderRow {
    const row = this.o.store.folders.list().find((f) => f.id === id);
    if (!row)
      throw new LabelDeskError('unknown_folder', 'That folder is no longer in the library.');
    return row;
  }

  private viewOf(row: FolderRow, totals?: FolderTotals): FolderView {
    const s = this.settings(row.id);
    return {
      id: row.id,
      path: row.path,
      watching: s.watching,
      polling: s.polling,
      autoLabel: s.autoLabel,
      scanning: this.scanning.has(row.id) || this.settling.has(row.id),
      missing: this.missing.has(row.id),
      lastScanAt: row.lastScanAt,
      counts: {
        images: totals?.images ?? 0,
        clips: totals?.clips ?? 0,
        labelled: totals?.labelled ?? 0,
        failed: totals?.failed ?? 0,
        new: totals?.new ?? 0,
      },
      errors: (totals?.errors ?? 0) + (this.scanIssues.get(row.id)?.size ?? 0),
    };
  }
}

/** Runs `fn` at most every `ms`, trailing: the last call is always honoured. */
function debounce(ms: number, fn: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  return () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      last = Date.now();
      fn();
    }, wait);
    timer.unref();
  };
}
