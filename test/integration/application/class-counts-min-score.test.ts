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

beforeEach(async () => {
  t = await tempDir('labeldesk-class-counts-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  client = new LibraryViewClient(store.file);
  handlers = libraryHandlers(store, client.q);
  const f = store.folders.add('/lib');
  store.media.upsertMany([
    {
      folderId: f.id,
      path: '/lib/a.jpg',
      kind: 'image',
      size: 1,
      mtimeMs: 1,
      contentHash: 'ha',
      width: 100,
      height: 100,
      orientation: 1,
      durationMs: null,
      fps: null,
    },
  ]);
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
