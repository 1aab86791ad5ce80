/**
 * The model-quality calls over a real library, through the contract's schemas: the reviewed mark
 * (set, taken off, refused for a file not read yet), the library's Review filter and tiles that
 * follow it, and the evaluation in its worker thread on the reviewed files only.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { qualityHandlers } from '../../../electron/application/evaluation/quality-handlers.js';
import { LibraryView } from '../../../electron/core/library-view/library-view.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import {
  CALLS,
  type CallInput,
  type CallName,
  type CallResult,
} from '../../../electron/shared/contract/index.js';
import { tempDir } from '../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
let changed: number[];
let ids: number[];

async function call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> {
  const h = qualityHandlers(store, (m) => changed.push(m.id));
  const handler = h[name as keyof typeof h] as (a: unknown) => unknown;
  return CALLS[name].output.parse(await handler(CALLS[name].input.parse(input))) as CallResult<N>;
}

const box = (label: string, score: number, x: number) => ({
  frameIndex: 0,
  timeMs: null,
  label,
  classId: null,
  score,
  bbox: { x, y: 0.1, w: 0.2, h: 0.3 },
});

beforeEach(async () => {
  t = await tempDir('labeldesk-quality-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  changed = [];
  const f = store.folders.add('/lib');
  const media = (path: string, contentHash: string | null) => ({
    folderId: f.id,
    path,
    kind: 'image' as const,
    size: 1,
    mtimeMs: 1,
    contentHash,
    width: 100,
    height: 50,
    orientation: 1,
    durationMs: null,
    fps: null,
  });
  ids = store.media.upsertMany([
    media('/lib/a.jpg', 'ha'),
    media('/lib/b.jpg', 'hb'),
    media('/lib/new.jpg', null),
  ]);
  for (const [hash, boxes] of [
    ['ha', [box('person', 0.9, 0.1), box('dog', 0.4, 0.6)]],
    ['hb', [box('person', 0.8, 0.1)]],
  ] as const) {
    store.results.save({
      contentHash: hash,
      solution: 'objects',
      serviceUrl: 'embedded',
      analysedWidth: 100,
      analysedHeight: 50,
      model: 'm',
      detections: [...boxes],
    });
  }
});
afterEach(async () => {
  store.close();
  await t.remove();
});

describe('reviewed mark', () => {
  it('is set and taken off through the contract, with a library event each time', async () => {
    const [a] = ids as [number];
    expect(await call('review.reviewed', { id: a, solution: 'objects' })).toEqual({
      reviewed: false,
      by: null,
      at: null,
    });
    const on = await call('review.markReviewed', { id: a, solution: 'objects', reviewed: true });
    expect(on).toMatchObject({ reviewed: true, by: 'person' });
    expect(await call('review.reviewed', { id: a, solution: 'face' })).toMatchObject({
      reviewed: false,
    });
    await call('review.markReviewed', { id: a, solution: 'objects', reviewed: false });
    expect((await call('review.reviewed', { id: a, solution: 'objects' })).reviewed).toBe(false);
    expect(changed).toEqual([a, a]);
  });

  it('refuses a file not read yet and an unknown item, each with a code and a sentence', async () => {
    const unread = ids[2]!;
    await expect(
      call('review.markReviewed', { id: unread, solution: 'objects', reviewed: true }),
    ).rejects.toMatchObject({ code: 'not_ready', message: expect.stringMatching(/new\.jpg/) });
    await expect(call('review.reviewed', { id: 999, solution: 'objects' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('drives the library: Reviewed and To review filters, and the tile', async () => {
    const [a, b] = ids as [number, number];
    await call('review.markReviewed', { id: a, solution: 'objects', reviewed: true });
    const view = new LibraryView(store.file);
    try {
      const page = (review: 'reviewed' | 'unreviewed') =>
        view
          .page({
            filter: { solution: 'objects', review },
            sort: 'path',
            descending: false,
            offset: 0,
            limit: 10,
          })
          .map((i) => [i.id, i.reviewed]);
      expect(page('reviewed')).toEqual([[a, true]]);
      // Labelled and not marked; the file not read yet has nothing to review.
      expect(page('unreviewed')).toEqual([[b, false]]);
      expect(view.count({ solution: 'objects', review: 'reviewed' })).toBe(1);
    } finally {
      view.close();
    }
  });
});

describe('quality.evaluate', () => {
  it('measures the reviewed files only, in the worker, and proposes no threshold on so little', async () => {
    const empty = await call('quality.evaluate', { solution: 'objects' });
    expect(empty).toMatchObject({
      reviewedFiles: 0,
      classes: [],
      map50: -1,
      targetPrecision: 0.95,
    });
    await call('review.markReviewed', { id: ids[0]!, solution: 'objects', reviewed: true });
    const r = await call('quality.evaluate', { solution: 'objects', targetPrecision: 0.9 });
    expect(r.reviewedFiles).toBe(1);
    // Nobody changed a box of a.jpg: it shows exactly the model's boxes, all right.
    expect(r.classes.map((c) => [c.label, c.tp, c.fp, c.fn])).toEqual([
      ['dog', 1, 0, 0],
      ['person', 1, 0, 0],
    ]);
    expect(r.calibration.map((c) => c.reason)).toEqual([
      'too-little-evidence',
      'too-little-evidence',
    ]);
    expect(r.targetPrecision).toBe(0.9);
  });
});
