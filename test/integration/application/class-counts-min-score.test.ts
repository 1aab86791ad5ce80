/**
 * Issue 27 §1: the Library's boxes per class count what a person sees, as the review and the
 * exports do: boxes from the library's minimum score up (0.3 unless changed), a person's scoreless
 * box always, a stricter filter winning. The service keeps boxes down to 0.05, so counting them
 * all showed classes at several times what the review shows.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { libraryHandlers } from '../../../electron/application/library-handlers.js';
import { LibraryViewClient } from '../../../electron/core/library-view/library-view-client.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import type { CallInput, CallName, CallResult } from '../../../electron/shared/contract/index.js';
import { callThrough } from '../../support/review-calls.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
let client: LibraryViewClient;
let handlers: object;

const call = <N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> =>
  callThrough(handlers, name, input);

const box = (label: string, score: number | null, i: number) => ({
  frameIndex: 0,
  timeMs: null,
  classId: null,
  label,
  score,
  bbox: { x: (i % 10) / 10, y: Math.floor(i / 10) / 10, w: 0.05, h: 0.05 },
});

const image = (folderId: number, path: string, contentHash: string) => ({
  folderId,
  path,
  kind: 'image' as const,
  size: 1,
  mtimeMs: 1,
  contentHash,
  width: 100,
  height: 100,
  orientation: 1,
  durationMs: null,
  fps: null,
});

beforeEach(async () => {
  t = await tempDir('labeldesk-class-counts-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  client = new LibraryViewClient(store.file);
  handlers = libraryHandlers(store, client.q);
  const f = store.folders.add('/lib');
  store.media.upsertMany([image(f.id, '/lib/a.jpg', 'ha')]);
  // person: 2 shown (0.9, 0.5) and 5 below 0.3; car: 1 shown (0.3) and 3 below; cup: only low;
  // kite: a person's box, no score.
  const scores: [string, number | null][] = [
    ['person', 0.9],
    ['person', 0.5],
    ...[0.05, 0.1, 0.15, 0.2, 0.29].map((s): [string, number] => ['person', s]),
    ['car', 0.3],
    ...[0.06, 0.12, 0.25].map((s): [string, number] => ['car', s]),
    ['cup', 0.08],
    ['kite', null], // drawn by a person
  ];
  store.results.save({
    contentHash: 'ha',
    solution: 'objects',
    serviceUrl: 'embedded',
    analysedWidth: 100,
    analysedHeight: 100,
    model: 'm',
    detections: scores.map(([label, score], i) => box(label, score, i)),
  });
});
afterEach(async () => {
  await client.close();
  store.close();
  await t.remove();
});

describe('boxes per class in the Library', () => {
  it('count from the library minimum score, as the review and exports show', async () => {
    expect(await call('library.classCounts', { solution: 'objects' })).toEqual([
      { label: 'person', count: 2 },
      { label: 'car', count: 1 },
      { label: 'kite', count: 1 },
    ]);
    // A stricter filter of the screen wins; a lower one does not show what the library hides.
    expect(await call('library.classCounts', { solution: 'objects', minScore: 0.6 })).toEqual([
      { label: 'kite', count: 1 },
      { label: 'person', count: 1 },
    ]);
    expect(await call('library.classCounts', { solution: 'objects', minScore: 0.1 })).toEqual([
      { label: 'person', count: 2 },
      { label: 'car', count: 1 },
      { label: 'kite', count: 1 },
    ]);
  });

  it('follow the library minimum score when a person changes it', async () => {
    await call('library.setMinScore', { minScore: 0.1 });
    expect(await call('library.classCounts', { solution: 'objects' })).toEqual([
      { label: 'person', count: 6 },
      { label: 'car', count: 3 },
      { label: 'kite', count: 1 },
    ]);
  });
});

describe("the Library tiles' box counts", () => {
  /** b.jpg: 20 boxes, all below the minimum score (more than a.jpg's 14 in all, none shown). */
  const addLowScoreFile = () => {
    const f = store.folders.add('/more');
    store.media.upsertMany([image(f.id, '/more/b.jpg', 'hb')]);
    store.results.save({
      contentHash: 'hb',
      solution: 'objects',
      serviceUrl: 'embedded',
      analysedWidth: 100,
      analysedHeight: 100,
      model: 'm',
      detections: Array.from({ length: 20 }, (_, i) => box('cup', 0.05 + i / 100, i)),
    });
  };
  const page = async (filter: { minScore?: number }, sort: 'path' | 'boxes' = 'path') => {
    const q = { filter: { solution: 'objects', ...filter }, sort, descending: sort === 'boxes' };
    const { items } = await call('library.page', { ...q, offset: 0, limit: 10 });
    const ids = await call('library.ids', { ...q, offset: 0, limit: 10 });
    return { tiles: items.map((i) => [i.name, i.boxes]), ids, byPath: items.map((i) => i.id) };
  };

  it('count from the library minimum score; files with only low boxes stay listed', async () => {
    addLowScoreFile();
    // a.jpg: 0.9, 0.5, 0.3 and the scoreless kite; b.jpg: none of its 20.
    expect((await page({})).tiles).toEqual([
      ['a.jpg', 4],
      ['b.jpg', 0],
    ]);
    // Sorted by boxes: by the boxes shown, not by all the service kept (b.jpg has more).
    const byBoxes = await page({}, 'boxes');
    expect(byBoxes.tiles).toEqual([
      ['a.jpg', 4],
      ['b.jpg', 0],
    ]);
    expect(byBoxes.ids).toEqual(byBoxes.byPath);
    // A stricter filter wins; a lower one does not count what the library hides.
    expect((await page({ minScore: 0.6 })).tiles).toEqual([['a.jpg', 2]]);
    expect((await page({ minScore: 0.1 })).tiles).toEqual([
      ['a.jpg', 4],
      ['b.jpg', 0],
    ]);
  });

  it('follow the library minimum score when a person changes it', async () => {
    addLowScoreFile();
    await call('library.setMinScore', { minScore: 0.1 });
    expect((await page({})).tiles).toEqual([
      ['a.jpg', 10],
      ['b.jpg', 15],
    ]);
    expect((await page({}, 'boxes')).tiles).toEqual([
      ['b.jpg', 15],
      ['a.jpg', 10],
    ]);
  });
});
