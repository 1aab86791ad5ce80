/**
 * An in-memory stand-in for the port the library uses (LibraryMediaStore: folders, its media
 * methods, bulk writes, no database file), for library tests. Same contract as the SQLite store: upsert by path, snapshot of every row of a folder,
 * list = present rows in path order. Everything else of the store is out of scope.
 */
import type {
  LibraryMediaPort,
  LibraryMediaStore,
} from '../../electron/core/library/media-types.js';
import type {
  FolderRow,
  MediaRecord,
  SnapshotEntry,
} from '../../electron/core/store/store-types.js';

export type FakeLibraryStore = LibraryMediaStore & {
  media: LibraryMediaPort & { count(): number };
  rows: Map<string, MediaRecord>;
  /** Calls made, for asserting batching. */
  calls: { upsertMany: number[]; markMissing: number[]; setHashAndProbe: number[] };
};

export function fakeLibraryStore(): FakeLibraryStore {
  const folders = new Map<number, FolderRow>();
  const rows = new Map<string, MediaRecord>();
  const calls = {
    upsertMany: [] as number[],
    markMissing: [] as number[],
    setHashAndProbe: [] as number[],
  };
  let nextFolder = 1;
  let nextMedia = 1;
  const byId = (id: number) => [...rows.values()].find((r) => r.id === id);
  const sorted = () =>
    [...rows.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const entryOf = (r: MediaRecord): SnapshotEntry => ({
    id: r.id,
    size: r.size,
    mtimeMs: r.mtimeMs,
    contentHash: r.contentHash,
    fileId: r.fileId ?? null,
  });

  const store: FakeLibraryStore = {
    rows,
    calls,
    // No database file: a scan that reads what it finds writes rows here, on this thread.
    file: null,
    // No log to checkpoint: the writes simply run.
    bulkWrites: (fn) => fn(),
    folders: {
      add(path) {
        const row = { id: nextFolder++, path, addedAt: Date.now(), lastScanAt: null };
        folders.set(row.id, row);
        return row;
      },
      remove(id) {
        folders.delete(id);
        for (const [p, r] of rows) if (r.folderId === id) rows.delete(p);
      },
      list: () => [...folders.values()].map((f) => ({ ...f })),
      markScanned(id, at) {
        const f = folders.get(id);
        if (f) f.lastScanAt = at;
      },
    },
    media: {
      upsertMany(input) {
        calls.upsertMany.push(input.length);
        return input.map((u) => {
          const prev = rows.get(u.path);
          const row: MediaRecord = {
            ...u,
            id: prev?.id ?? nextMedia++,
            status: u.status ?? 'present',
            errorCode: u.errorCode ?? null,
            errorMessage: u.errorMessage ?? null,
          };
          rows.set(u.path, row);
          return row.id;
        });
      },
      // The store's cheaper write: here the same upsert (looked up at call time, so a test that
      // replaces upsertMany sees these writes too).
      writeMany: (input) => store.media.upsertMany(input),
      setHashAndProbe(input) {
        calls.setHashAndProbe.push(input.length);
        let changed = 0;
        for (const u of input) {
          const r = byId(u.id);
          if (!r || r.size !== u.size || r.mtimeMs !== u.mtimeMs) continue;
          r.contentHash = u.contentHash;
          if (u.probe) Object.assign(r, u.probe);
          changed++;
        }
        return changed;
      },
      byPath: (path) => (rows.has(path) ? { ...rows.get(path)! } : undefined),
      byId: (id) => {
        const r = byId(id);
        return r ? { ...r } : undefined;
      },
      snapshot(folderId) {
        const out = new Map<string, SnapshotEntry>();
        for (const r of rows.values()) if (r.folderId === folderId) out.set(r.path, entryOf(r));
        return out;
      },
      snapshotPage: (folderId, afterPath, limit) =>
        sorted()
          .filter((r) => r.folderId === folderId && r.path > afterPath)
          .slice(0, limit)
          .map((r) => ({ path: r.path, entry: entryOf(r), present: r.status === 'present' })),
      anyUnhashed: () =>
        [...rows.values()].some((r) => r.status === 'present' && r.contentHash === null),
      markMissing(ids) {
        calls.markMissing.push(ids.length);
        for (const id of ids) {
          const r = byId(id);
          if (r) r.status = 'missing';
        }
      },
      markError(id, code, message) {
        const r = byId(id);
        if (r) Object.assign(r, { status: 'error', errorCode: code, errorMessage: message });
      },
      list({ folderIds, kind, limit, afterPath }) {
        const out = sorted().filter(
          (r) =>
            r.status === 'present' &&
            (!folderIds?.length || folderIds.includes(r.folderId)) &&
            (!kind || r.kind === kind) &&
            (afterPath === undefined || r.path > afterPath),
        );
        return out.slice(0, limit ?? out.length).map((r) => ({ ...r }));
      },
      count: () => rows.size,
    },
  };
  return store;
}
