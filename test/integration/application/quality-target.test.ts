/**
 * The person's target precision (issue 13 §3–§4) through the contract on a real library with the
 * real threads: stored per solution, the evaluation and Review priority calibrated with it (the
 * cached priority goes stale when it changes), and refused on a read-only library.
 * Needs `npm run build:node` (the workers run compiled code).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { qualityHandlers } from '../../../electron/application/evaluation/quality-handlers.js';
import { libraryHandlers } from '../../../electron/application/library-handlers.js';
import { refuseWrites } from '../../../electron/application/read-only-home.js';
import { ReviewPriorityCache } from '../../../electron/application/review-next.js';
import { LibraryViewClient } from '../../../electron/core/library-view/library-view-client.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import type {
  CallInput,
  CallName,
  CallResult,
  Handlers,
} from '../../../electron/shared/contract/index.js';
import { callThrough } from '../../support/review-calls.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
let client: LibraryViewClient;
let handlers: object;
let libraryEvents: number;

const call = <N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> =>
  callThrough(handlers, name, input);

/** Boxes side by side on a file, never overlapping (no conflicts, each its own object). */
const pear = (score: number, slot: number) => {
  const bbox = { x: slot * 0.09, y: 0.1, w: 0.05, h: 0.05 };
  return { frameIndex: 0, timeMs: null, classId: null, label: 'pear', score, bbox };
};

/**
 * Reviewed evidence: 80 right boxes scored 0.900–0.979, then 40 scored 0.400–0.595 of which every
 * third is wrong (rejected by a person). At 95 % only the first carry a threshold (0.9); at 80 %
 * the second do too (0.4).
 */
const EVIDENCE = [
  ...Array.from({ length: 80 }, (_, i) => ({ score: 0.9 + i / 1000, right: true })),
  ...Array.from({ length: 40 }, (_, i) => ({ score: 0.4 + i / 200, right: i % 3 !== 0 })),
];

function addFile(folderId: number, name: string, scores: readonly number[]): number {
  const [id] = store.media.upsertMany([
    {
      folderId,
      path: `/${name}.jpg`,
      kind: 'image',
      size: 1,
      mtimeMs: 1,
      contentHash: `h-${name}`,
      width: 100,
      height: 100,
      orientation: 1,
      durationMs: null,
      fps: null,
    },
  ]);
  store.results.save({
    contentHash: `h-${name}`,
    solution: 'objects',
    serviceUrl: 'embedded',
    analysedWidth: 100,
    analysedHeight: 100,
    model: 'm',
    detections: scores.map(pear),
  });
  return id as number;
}

const id: Record<string, number> = {};

beforeEach(async () => {
  t = await tempDir('labeldesk-quality-target-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  client = new LibraryViewClient(store.file);
  const priority = new ReviewPriorityCache(store, client.q);
  libraryEvents = 0;
  handlers = {
    ...libraryHandlers(store, client.q, (s) => priority.fresh(s)),
    ...qualityHandlers(
      store,
      () => undefined,
      undefined,
      () => libraryEvents++,
    ),
  };
  const truth = store.folders.add('/truth');
  for (let f = 0; f < EVIDENCE.length / 10; f++) {
    const boxes = EVIDENCE.slice(f * 10, f * 10 + 10);
    const fileId = addFile(
      truth.id,
      `truth-${f}`,
      boxes.map((b) => b.score),
    );
    boxes.forEach((b, slot) => {
      if (b.right) return;
      const { label, score, bbox } = pear(b.score, slot);
      store.corrections.put({
        contentHash: `h-truth-${f}`,
        solution: 'objects',
        frameIndex: 0,
        timeMs: null,
        anchor: { label, score, bbox },
        label: null,
        bbox: null,
        review: 'rejected',
        deleted: false,
      });
    });
    store.reviewed.markReviewed([fileId], 'objects', 'person');
  }
  const lib = store.folders.add('/lib');
  // Near the 95 % threshold (0.9), far from the 80 % one (0.4); and the other way round.
  id['sure'] = addFile(lib.id, 'sure', [0.93, 0.95]);
  id['unsure'] = addFile(lib.id, 'unsure', [0.42, 0.45]);
});
afterEach(async () => {
  await client.close();
  store.close();
  await t.remove();
});

const byPriority = async () =>
  (
    await call('library.page', {
      filter: { solution: 'objects', review: 'unreviewed' },
      sort: 'priority',
      offset: 0,
      limit: 10,
    })
  ).items.map((i) => i.name);

const threshold = async () =>
  (await call('quality.evaluate', { solution: 'objects' })).calibration.find(
    (c) => c.label === 'pear',
  )?.threshold;

describe('the target precision', () => {
  it('is 95 % until set, then stored per solution and used by the evaluation', async () => {
    expect(await call('quality.target', { solution: 'objects' })).toEqual({
      solution: 'objects',
      targetPrecision: 0.95,
    });
    expect(await threshold()).toBe(0.9);

    await call('quality.setTarget', { solution: 'objects', targetPrecision: 0.8 });
    expect((await call('quality.target', { solution: 'objects' })).targetPrecision).toBe(0.8);
    expect((await call('quality.target', { solution: 'faces' })).targetPrecision).toBe(0.95);
    expect(await threshold()).toBe(0.4);
    expect(libraryEvents).toBe(1);
  });

  it('calibrates Review priority: at 80 % the boxes near 0.4 come first, not those near 0.9', async () => {
    expect(await byPriority()).toEqual(['sure.jpg', 'unsure.jpg']);
    await call('quality.setTarget', { solution: 'objects', targetPrecision: 0.8 });
    // The cached order is stale with the new target, not served as it was.
    expect(await byPriority()).toEqual(['unsure.jpg', 'sure.jpg']);
    await call('quality.setTarget', { solution: 'objects', targetPrecision: 0.95 });
    expect(await byPriority()).toEqual(['sure.jpg', 'unsure.jpg']);
  });

  it('refuses a target out of range, and any change on a read-only library', async () => {
    await expect(
      call('quality.setTarget', { solution: 'objects', targetPrecision: 1.2 }),
    ).rejects.toThrow();
    handlers = refuseWrites(handlers as Handlers, t.dir, 'it is on a read-only file system');
    await expect(
      call('quality.setTarget', { solution: 'objects', targetPrecision: 0.8 }),
    ).rejects.toMatchObject({ code: 'read_only_library' });
    expect((await call('quality.target', { solution: 'objects' })).targetPrecision).toBe(0.95);
  });
});
