/**
 * `labeldesk evaluate` as a user runs it (a child process of the compiled CLI) on a library a
 * person reviewed: the figures equal the reference computation on exactly what the files show,
 * follow an edit made after the review, and leave out files nobody marked reviewed.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewService } from '../../../electron/core/review/review-service.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { DetectionInput, LibraryStore } from '../../../electron/core/store/store-types.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';
import { cocoReference, type RefBox } from '../../support/coco-reference.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
const A = { x: 0.1, y: 0.1, w: 0.3, h: 0.3 };
const B = { x: 0.5, y: 0.1, w: 0.2, h: 0.2 };
const FAR = { x: 0.6, y: 0.6, w: 0.3, h: 0.3 };
const DRAWN = { x: 0.05, y: 0.7, w: 0.1, h: 0.2 };

const det = (label: string, score: number, bbox: RefBox): DetectionInput => ({
  frameIndex: 0,
  timeMs: null,
  label,
  classId: null,
  score,
  bbox,
});

function withStore<T>(fn: (store: LibraryStore, review: ReviewService) => T): T {
  const store = openLibraryStore(join(t.home, 'library.sqlite'));
  try {
    return fn(store, new ReviewService(store));
  } finally {
    store.close();
  }
}

const ref = (b: { detectionId: number | null; correctionId: number | null }) => ({
  detectionId: b.detectionId,
  correctionId: b.correctionId,
});

interface EvalJson {
  reviewedFiles: number;
  classes: {
    label: string;
    tp: number;
    fp: number;
    fn: number;
    precision: number;
    recall: number;
    ap50: number;
    ap: number;
  }[];
  map50: number;
  map: number;
}

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home);
  withStore((store, review) => {
    const folder = store.folders.add(join(t.dir, 'set'));
    const media = (name: string, hash: string) => ({
      folderId: folder.id,
      path: join(t.dir, 'set', name),
      kind: 'image' as const,
      size: 1000,
      mtimeMs: 1,
      contentHash: hash,
      width: 640,
      height: 480,
      orientation: 1,
      durationMs: null,
      fps: null,
    });
    // c.jpg is analysed but nobody reviews it: it must stay out of the figures.
    const [a, b] = store.media.upsertMany([
      media('a.jpg', 'ha'),
      media('b.jpg', 'hb'),
      media('c.jpg', 'hc'),
    ]);
    const save = (hash: string, detections: DetectionInput[]) =>
      store.results.save({
        contentHash: hash,
        solution: 'objects',
        serviceUrl: 'embedded',
        analysedWidth: 640,
        analysedHeight: 480,
        model: 'centernet',
        detections,
      });
    save('ha', [det('person', 0.9, A), det('dog', 0.8, B)]);
    save('hb', [det('person', 0.7, A), det('cat', 0.6, FAR)]);
    save('hc', [det('person', 0.9, A)]);
    // a: the person is right, the dog is not there. b: the "cat" is a dog, and a person was missed.
    const boxes = (id: number) => review.item(id, 'objects').boxes;
    const [person, dog] = boxes(a!);
    review.edit(a!, 'objects', { kind: 'accept', box: ref(person!) });
    review.edit(a!, 'objects', { kind: 'reject', box: ref(dog!) });
    const cat = boxes(b!).find((x) => x.label === 'cat')!;
    review.edit(b!, 'objects', { kind: 'relabel', box: ref(cat), label: 'dog' });
    review.edit(b!, 'objects', {
      kind: 'add',
      frameIndex: 0,
      timeMs: null,
      label: 'person',
      bbox: DRAWN,
    });
    expect(store.reviewed.markReviewed([a!, b!], 'objects', 'person')).toHaveLength(2);
  });
});
afterAll(() => t.remove());

async function evaluateJson(...args: string[]): Promise<EvalJson> {
  const r = await runCli(['evaluate', ...args, '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return lastJson<EvalJson>(r.stdout);
}

describe('labeldesk evaluate', () => {
  it('prints exactly the documented JSON, equal to the reference on what the reviewed files show', async () => {
    const got = await evaluateJson();
    expect(Object.keys(got)).toEqual(['reviewedFiles', 'classes', 'map50', 'map']);
    expect(Object.keys(got.classes[0]!)).toEqual([
      'label',
      'tp',
      'fp',
      'fn',
      'precision',
      'recall',
      'ap50',
      'ap',
    ]);
    // Image 0 is a.jpg, image 1 is b.jpg (c.jpg is not reviewed).
    const want = cocoReference(
      [0, 1],
      [
        { image: 0, category: 'person', bbox: A },
        { image: 1, category: 'person', bbox: A },
        { image: 1, category: 'dog', bbox: FAR },
        { image: 1, category: 'person', bbox: DRAWN },
      ],
      [
        { image: 0, category: 'person', score: 0.9, bbox: A },
        { image: 0, category: 'dog', score: 0.8, bbox: B },
        { image: 1, category: 'person', score: 0.7, bbox: A },
        { image: 1, category: 'cat', score: 0.6, bbox: FAR },
      ],
    );
    expect(got.reviewedFiles).toBe(2);
    expect(got.classes).toEqual(want.classes);
    expect([got.map50, got.map]).toEqual([want.map50, want.map]);
    expect(got.classes.find((c) => c.label === 'person')).toMatchObject({ tp: 2, fp: 0, fn: 1 });
    expect(got.classes.find((c) => c.label === 'cat')).toMatchObject({ fp: 1, ap: -1 });
  });

  it('follows an edit made after the review, and counts only boxes at the minimum score', async () => {
    withStore((store, review) => {
      const b = store.media.byPath(join(t.dir, 'set', 'b.jpg'))!;
      const drawn = review.item(b.id, 'objects').boxes.find((x) => x.origin === 'added')!;
      review.edit(b.id, 'objects', { kind: 'delete', box: ref(drawn) });
    });
    const after = await evaluateJson();
    expect(after.classes.find((c) => c.label === 'person')).toMatchObject({
      tp: 2,
      fn: 0,
      recall: 1,
    });
    const strict = await evaluateJson('--min-score', '0.75');
    expect(strict.classes.find((c) => c.label === 'person')).toMatchObject({ tp: 1, fp: 0, fn: 1 });
  });

  it('prints a table for people, and refuses a minimum score outside 0–1 (exit 2)', async () => {
    const r = await runCli(['evaluate'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^2 reviewed files, solution objects/);
    expect(r.stdout).toMatch(/^person\s+2\s+0\s+0\s+100\.0%\s+100\.0%/m);
    const bad = await runCli(['evaluate', '--min-score', '2'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--min-score takes a number from 0 to 1');
  });
});
