/**
 * An in-memory stand-in for the folders and media parts of LibraryStore, for library tests.
 * Same contract as the SQLite store: upsert by path, snapshot of every row of a folder,
 * list = present rows in path order. Everything else of the store is out of scope.
 */
import type {
  FolderRow,
  LibraryStore,
  MediaRecord,
} from '../../electron/core/store/store-types.js';

export type FakeLibraryStore = Pick<LibraryStore, 'folders' | 'media'> & {
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

  return {
    rows,
    calls,
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
        const out: ReturnType<LibraryStore['media']['snapshot']> = new Map();
        for (const r of rows.values()) {
          if (r.folderId === folderId)
            out.set(r.path, {
              id: r.id,
              size: r.size,
              mtimeMs: r.mtimeMs,
              contentHash: r.contentHash,
              fileId: r.fileId ?? null,
            });
        }
        return out;
      },
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
      page() {
        throw new Error('media.page is not part of the fake store');
      },
      count: () => rows.size,
    },
  };
}
