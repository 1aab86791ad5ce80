import { mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadRows } from '../../../../electron/core/library/read-on-scan.js';
import type { MediaUpsert } from '../../../../electron/core/store/store-types.js';
import { reconcile } from '../../../../electron/core/library/reconcile.js';
import { scanFolder } from '../../../../electron/core/library/scan-folder.js';
import { fakeLibraryStore, type FakeLibraryStore } from '../../../support/fake-library-store.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
let store: FakeLibraryStore;
let folderId: number;
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-reconcile-'));
  store = fakeLibraryStore();
  folderId = store.folders.add(dir).id;
});
afterEach(() => remove());

const file = (name: string) => path.join(dir, name);
const rescan = (options = {}) => reconcile(store, folderId, scanFolder(dir), options);

describe('reconcile', () => {
  it('picks up changes made while LabelDesk was closed', async () => {
    await mkdir(file('sub'));
    for (const name of ['keep.jpg', 'edit.jpg', 'delete.jpg', 'sub/touch.png'])
      await writeFile(file(name), name);
    expect(await rescan()).toEqual({ new: 4, changed: 0, unchanged: 0, missing: 0, reappeared: 0 });
    // Hashes and probe results were stored in the meantime.
    for (const name of ['keep.jpg', 'edit.jpg', 'sub/touch.png']) {
      const row = store.rows.get(file(name))!;
      store.media.upsertMany([{ ...row, contentHash: `hash-${name}`, width: 10, height: 10 }]);
    }

    // "Closed": edit one (size), touch one (mtime only), delete one, add one.
    await writeFile(file('edit.jpg'), 'edited, longer now');
    await utimes(file('sub/touch.png'), new Date(), new Date(Date.now() + 5000));
    await rm(file('delete.jpg'));
    await writeFile(file('new.webp'), 'new');

    expect(await rescan()).toEqual({ new: 1, changed: 2, unchanged: 1, missing: 1, reappeared: 0 });
    const row = (name: string) => store.rows.get(file(name))!;
    expect(row('keep.jpg')).toMatchObject({
      contentHash: 'hash-keep.jpg',
      width: 10,
      status: 'present',
    });
    // Changed bytes: the old hash and size are no longer true.
    expect(row('edit.jpg')).toMatchObject({ contentHash: null, width: null, size: 18 });
    expect(row('sub/touch.png')).toMatchObject({ contentHash: null });
    expect(row('delete.jpg').status).toBe('missing');
    expect(row('new.webp')).toMatchObject({ status: 'present', kind: 'image' });

    // Nothing changed: nothing written, the missing file is not counted again.
    store.calls.upsertMany.length = 0;
    expect(await rescan()).toEqual({ new: 0, changed: 0, unchanged: 4, missing: 0, reappeared: 0 });
    expect(store.calls.upsertMany).toEqual([]);
  });

  it('reads again a file replaced by another of the same size and time (a link swapped)', async () => {
    const when = new Date(Date.now() - 60_000);
    for (const name of ['a.bin', 'b.bin']) {
      await writeFile(file(name), 'same size');
      await utimes(file(name), when, when);
    }
    await symlink(file('a.bin'), file('photo.jpg'));
    expect(await rescan()).toMatchObject({ new: 1 });
    const first = store.rows.get(file('photo.jpg'))!;
    store.media.upsertMany([{ ...first, contentHash: 'hash-a', width: 10, height: 10 }]);
    await rm(file('photo.jpg'));
    await symlink(file('b.bin'), file('photo.jpg'));
    expect(await rescan()).toMatchObject({ changed: 1, unchanged: 0 });
    const row = store.rows.get(file('photo.jpg'))!;
    expect(row).toMatchObject({ contentHash: null, width: null });
    expect(row.fileId).not.toBe(first.fileId);
  });

  it('leaves a file still being written (changed after settledBefore) for later, untouched', async () => {
    await writeFile(file('done.jpg'), 'complete');
    await writeFile(file('copying.jpg'), 'half a cop');
    const past = new Date(Date.now() - 10_000);
    await utimes(file('done.jpg'), past, past);
    const unsettled: string[] = [];
    const counts = await rescan({
      settledBefore: Date.now() - 2000,
      onUnsettled: (p: string) => unsettled.push(p),
    });
    expect(counts).toMatchObject({ new: 1, missing: 0 });
    expect(unsettled).toEqual([file('copying.jpg')]);
    expect(store.rows.has(file('copying.jpg'))).toBe(false);
    // A known file being rewritten keeps its row as it was, and is not marked missing.
    await utimes(file('copying.jpg'), past, past);
    await rescan();
    const before = store.rows.get(file('copying.jpg'))!;
    await writeFile(file('copying.jpg'), 'half a copy, and more');
    await rescan({ settledBefore: Date.now() - 2000 });
    expect(store.rows.get(file('copying.jpg'))).toEqual(before);
  });

  it('brings back an unchanged file that was missing, keeping its hash', async () => {
    await writeFile(file('a.jpg'), 'a');
    await rescan();
    const row = store.rows.get(file('a.jpg'))!;
    store.media.upsertMany([{ ...row, contentHash: 'h' }]);
    store.media.markMissing([row.id]);
    expect(await rescan()).toMatchObject({ unchanged: 1, reappeared: 1 });
    expect(store.rows.get(file('a.jpg'))).toMatchObject({ status: 'present', contentHash: 'h' });
  });

  it('writes in batches', async () => {
    for (let i = 0; i < 25; i++) await writeFile(file(`f${i}.jpg`), 'x');
    await reconcile(store, folderId, scanFolder(dir, { batchSize: 10 }), { batchSize: 4 });
    expect(Math.max(...store.calls.upsertMany)).toBeLessThanOrEqual(4);
    expect(store.rows.size).toBe(25);
  });

  it('keeps walking while earlier batches are read, and stores them in the order found', async () => {
    for (let i = 0; i < 12; i++) await writeFile(file(`f${String(i).padStart(2, '0')}.jpg`), 'x');
    // Reads answer only when told to: the walk must not wait for the first one.
    const asked: { paths: string[]; answer: () => void }[] = [];
    const read: ReadRows = (rows) =>
      new Promise((resolve) => {
        const hashed = rows.map((r) => ({ ...r, contentHash: `hash-${path.basename(r.path)}` }));
        asked.push({ paths: rows.map((r) => r.path), answer: () => resolve(hashed) });
      });
    const done = reconcile(store, folderId, scanFolder(dir, { batchSize: 4 }), {
      batchSize: 4,
      read,
    });
    await vi.waitFor(() => expect(asked).toHaveLength(3));
    expect(store.rows.size).toBe(0);
    // The second answers first: it is kept until the first is stored.
    asked[1]!.answer();
    // Everything here is in memory: a few turns of the event loop let every write that the
    // answer could cause happen (no timer is involved, so no fixed wait is needed).
    for (let turn = 0; turn < 10; turn++) await new Promise((r) => setImmediate(r));
    expect(store.rows.size).toBe(0);
    asked[0]!.answer();
    asked[2]!.answer();
    expect(await done).toMatchObject({ new: 12 });
    const order = [...store.rows.values()].sort((a, b) => a.id - b.id).map((r) => r.path);
    expect(order).toEqual(asked.flatMap((a) => a.paths));
    expect([...store.rows.values()].every((r) => r.contentHash?.startsWith('hash-'))).toBe(true);
  });

  it('gives the walk the known paths, and does not count a new file its read dropped', async () => {
    for (const n of ['a', 'b', 'c']) await writeFile(file(`${n}.jpg`), 'x');
    let known: ReadonlyMap<string, unknown> | undefined;
    // A read that finds b.jpg gone (readOnScan drops such a row, with the walk's issue).
    const read: ReadRows = async (rows) => rows.filter((r) => !r.path.endsWith('b.jpg'));
    const counts = await reconcile(store, folderId, scanFolder(dir), {
      read,
      onKnown: (k) => (known = k),
    });
    expect(known).toBeDefined();
    expect(counts).toMatchObject({ new: 2 });
    expect([...store.rows.keys()].map((p) => path.basename(p)).sort()).toEqual(['a.jpg', 'c.jpg']);
  });

  it('stops with the error of a batch that cannot be stored, storing nothing after it', async () => {
    for (let i = 0; i < 8; i++) await writeFile(file(`f${i}.jpg`), 'x');
    const upsert = store.media.upsertMany.bind(store.media);
    let writes = 0;
    store.media.upsertMany = (rows) => {
      if (++writes === 1) throw new Error('database or disk is full');
      return upsert(rows);
    };
    const read: ReadRows = async (rows) => [...rows];
    await expect(
      reconcile(store, folderId, scanFolder(dir, { batchSize: 4 }), { batchSize: 4, read }),
    ).rejects.toThrow('disk is full');
    expect(store.rows.size).toBe(0);
  });

  it('hands new rows to writeRows (a writer thread) in batches, writing none itself', async () => {
    for (let i = 0; i < 9; i++) await writeFile(file(`f${i}.jpg`), 'x');
    const written: string[][] = [];
    const writeRows = async (rows: readonly MediaUpsert[]) => {
      await new Promise((r) => setTimeout(r, 5));
      written.push(rows.map((r) => r.path));
      return undefined; // no ids: nothing for onWritten
    };
    const read: ReadRows = async (rows) => [...rows];
    const counts = await reconcile(store, folderId, scanFolder(dir, { batchSize: 4 }), {
      batchSize: 4,
      read,
      writeRows,
    });
    expect(counts).toMatchObject({ new: 9 });
    expect(written.flat().sort()).toEqual(
      [...Array(9).keys()].map((i) => file(`f${i}.jpg`)).sort(),
    );
    expect(Math.max(...written.map((w) => w.length))).toBeLessThanOrEqual(4);
    expect(store.calls.upsertMany).toEqual([]);
  });

  it('marks nothing missing when the folder itself is unavailable', async () => {
    await writeFile(file('a.jpg'), 'a');
    await rescan();
    await rm(file('a.jpg'));
    const counts = await rescan({ rootUnavailable: () => true });
    expect(counts.missing).toBe(0);
    expect(store.rows.get(file('a.jpg'))!.status).toBe('present');
  });
});
