/**
 * Review next and the "Review priority" sort through the contract's schemas, on a real library
 * with the real threads (the evaluation worker for the thresholds, the library view's thread for
 * the scan): Review next marks the file reviewed and answers the file with the most expected
 * corrections, then the next, and at the end null; the library's page sorted by priority is the
 * same order. Needs `npm run build:node` (the workers run compiled code).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { libraryHandlers } from '../../../electron/application/library-handlers.js';
import { reviewHandlers } from '../../../electron/application/review-handlers.js';
import type { RunController } from '../../../electron/application/run-controller.js';
import {
  ReviewPriorityCache,
  reviewNextHandlers,
} from '../../../electron/application/review-next.js';
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
let changed: number[];
const id: Record<string, number> = {};

const call = <N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> =>
  callThrough(handlers, name, input);

const SAME = { x: 0.4, y: 0.4, w: 0.3, h: 0.3 };
const ANY_FRAME = { frameIndex: 0, timeMs: null, classId: null };
const box = (label: string, score: number, bbox = { x: score / 2, y: 0.1, w: 0.04, h: 0.04 }) => ({
  ...ANY_FRAME,
  ...{ label, score, bbox },
});
const sure = (n: number) => Array.from({ length: n }, (_, i) => box('pear', 0.9 + i / 100));

beforeEach(async () => {
  t = await tempDir('labeldesk-review-next-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  client = new LibraryViewClient(store.file);
  const priority = new ReviewPriorityCache(store, client.q);
  changed = [];
  handlers = {
    ...libraryHandlers(store, client.q, (s) => priority.fresh(s)),
    ...reviewNextHandlers(store, client.q, priority, (m) => changed.push(m.id)),
    // Box edits only: re-analysis (the run controller) is never called here.
    ...reviewHandlers(store, undefined as unknown as RunController, () => undefined),
  };
  const f = store.folders.add('/lib');
  const files = {
    a: sure(3),
    b: [...sure(2), box('apple', 0.8, SAME), box('orange', 0.7, SAME)], // one conflict
    c: [], // its folder's files have 3 boxes
    d: sure(4),
  };
  const names = Object.keys(files);
  const ids = store.media.upsertMany([
    ...names.map((n) => ({
      folderId: f.id,
      path: `/lib/${n}.jpg`,
      kind: 'image' as const,
      size: 1,
      mtimeMs: 1,
      contentHash: `h${n}`,
      width: 100,
      height: 50,
      orientation: 1,
      durationMs: null,
      fps: null,
    })),
  ]);
  names.forEach((n, i) => (id[n] = ids[i] as number));
  for (const [n, detections] of Object.entries(files)) {
    store.results.save({
      contentHash: `h${n}`,
      solution: 'objects',
      serviceUrl: 'embedded',
      analysedWidth: 100,
      analysedHeight: 50,
      model: 'm',
      detections,
    });
  }
});
afterEach(async () => {
  await client.close();
  store.close();
  await t.remove();
});

describe('review priority through the contract', () => {
  it('the library sorts by it: files to review, most expected corrections first', async () => {
    const page = await call('library.page', {
      filter: { solution: 'objects' },
      sort: 'priority',
      offset: 0,
      limit: 10,
    });
    // c misses 3 boxes, b has a conflict, a and d are as their folder (path order between them).
    expect(page.items.map((i) => i.name)).toEqual(['c.jpg', 'b.jpg', 'a.jpg', 'd.jpg']);
  });

  it('Review next marks the file reviewed and walks the rest by priority, then says none', async () => {
    const first = await call('review.next', { id: id['a']!, solution: 'objects' });
    expect(first).toEqual({ marked: true, next: id['c'], remaining: 3 });
    expect(store.reviewed.of(id['a']!, 'objects')?.reviewedBy).toBe('person');
    expect(changed).toEqual([id['a']]);

    const second = await call('review.next', { id: id['c']!, solution: 'objects' });
    expect(second).toEqual({ marked: true, next: id['b'], remaining: 2 });
    const third = await call('review.next', { id: id['b']!, solution: 'objects' });
    expect(third).toEqual({ marked: true, next: id['d'], remaining: 1 });
    const last = await call('review.next', { id: id['d']!, solution: 'objects' });
    expect(last).toEqual({ marked: true, next: null, remaining: 0 });

    const reviewed = await call('library.page', {
      filter: { solution: 'objects', review: 'reviewed' },
      sort: 'path',
      offset: 0,
      limit: 10,
    });
    expect(reviewed.total).toBe(4);
  });

  it("a person's edit on a file to review updates its priority (sort and Review next)", async () => {
    const byPriority = async () =>
      (
        await call('library.page', {
          filter: { solution: 'objects' },
          sort: 'priority',
          offset: 0,
          limit: 10,
        })
      ).items.map((i) => i.name);
    expect(await byPriority()).toEqual(['c.jpg', 'b.jpg', 'a.jpg', 'd.jpg']);
    // b's conflict ends when the person calls the orange an apple too (no box count changes).
    const { boxes } = await call('review.boxes', { id: id['b']!, solution: 'objects' });
    const orange = boxes.find((b) => b.label === 'orange')!;
    const ref = { detectionId: orange.detectionId, correctionId: orange.correctionId };
    await call('review.edit', {
      id: id['b']!,
      solution: 'objects',
      edit: { kind: 'relabel', box: ref, label: 'apple' },
    });
    expect(await byPriority()).toEqual(['c.jpg', 'a.jpg', 'b.jpg', 'd.jpg']);
    // c misses no box once the person has drawn its folder's three.
    for (const x of [0.1, 0.4, 0.7]) {
      const bbox = { x, y: 0.1, w: 0.1, h: 0.1 };
      const edit = { kind: 'add' as const, frameIndex: 0, timeMs: null, label: 'pear', bbox };
      await call('review.edit', { id: id['c']!, solution: 'objects', edit });
    }
    expect(await byPriority()).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    const next = await call('review.next', { id: id['a']!, solution: 'objects' });
    expect(next).toMatchObject({ marked: true, next: id['b'] });
  });

  it('an unknown file is an error with a code', async () => {
    await expect(call('review.next', { id: 99_999, solution: 'objects' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
