/**
 * Issue 24: ground truth imported onto a labelled library is the person's, whatever model box it
 * lands on. A label repeating a low-score model box, one moved off a low-score box of another
 * class and one drawn where the model saw nothing all survive `export --min-score 0.5`, show no
 * score in the review, while `coco-results` still writes the model's own boxes and scores.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewService } from '../../../electron/core/review/review-service.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { modelBox, seedAnalysedImages } from '../../support/analysed-images.js';
import { parseCsv, readCoco, readCsv } from '../../support/cli-exports.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';

type Home = Awaited<ReturnType<typeof cliHome>>;
let t: Home;
let env: NodeJS.ProcessEnv;
const ids: number[] = [];

function withStore<T>(fn: (store: LibraryStore) => T): T {
  const store = openLibraryStore(join(t.home, 'library.sqlite'));
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

const person = (score: number) => modelBox('person', score, { x: 0.1, y: 0.1, w: 0.3, h: 0.3 });
const cat = (score: number) => modelBox('cat', score, { x: 0.5, y: 0.1, w: 0.2, h: 0.2 });
const farDog = (score: number) => modelBox('dog', score, { x: 0.6, y: 0.6, w: 0.3, h: 0.3 });

/** COCO ground truth in pixels of the 640×480 photos. */
const GROUND_TRUTH = {
  images: [
    { id: 1, file_name: 'a.jpg', width: 640, height: 480 },
    { id: 2, file_name: 'b.jpg', width: 640, height: 480 },
  ],
  categories: [
    { id: 1, name: 'person' },
    { id: 2, name: 'dog' },
    { id: 3, name: 'kite' },
  ],
  annotations: [
    // Exactly the model's person at 0.3: the label confirms the box.
    { id: 10, image_id: 1, category_id: 1, bbox: [64, 48, 192, 144], area: 1, iscrowd: 0 },
    // The model's cat at 0.2, a little further right: it becomes this dog.
    { id: 11, image_id: 1, category_id: 2, bbox: [324, 50, 128, 96], area: 1, iscrowd: 0 },
    // Where the model saw nothing: drawn.
    { id: 12, image_id: 1, category_id: 3, bbox: [20, 300, 60, 60], area: 1, iscrowd: 0 },
    // A confident model box, confirmed.
    { id: 13, image_id: 2, category_id: 1, bbox: [64, 48, 192, 144], area: 1, iscrowd: 0 },
  ],
};

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home);
  withStore((store) => {
    const images = [
      { name: 'a.jpg', contentHash: 'ha', detections: [person(0.3), cat(0.2)] },
      { name: 'b.jpg', contentHash: 'hb', detections: [person(0.9), farDog(0.1)] },
    ];
    ids.push(...seedAnalysedImages(store, join(t.dir, 'set'), images));
  });
  const gt = join(t.dir, 'ground-truth.json');
  await writeFile(gt, JSON.stringify(GROUND_TRUTH));
  const r = await runCli(['import', gt, '--format', 'coco', '--json'], env);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(() => t?.remove());

const sorted = (boxes: { path: string; label: string }[]) =>
  boxes.map((b) => `${b.path.split('/').pop() ?? ''} ${b.label}`).sort();

const EVERY_LABEL = ['a.jpg dog', 'a.jpg kite', 'a.jpg person', 'b.jpg person'];

async function exportTo(format: string, minScore: string, name: string): Promise<string> {
  const out = join(t.dir, name);
  const r = await runCli(
    ['export', '--format', format, '--min-score', minScore, '--out', out],
    env,
  );
  expect(r.code, r.stderr).toBe(0);
  return out;
}

describe('imported ground truth and model scores', () => {
  it('export --min-score 0.5 keeps every ground-truth box, with no score', async () => {
    const { boxes } = await readCoco(await exportTo('coco', '0.5', 'gt.json'));
    expect(sorted(boxes)).toEqual(EVERY_LABEL);
    expect(boxes.map((b) => b.score ?? null)).toEqual([null, null, null, null]);
    const csv = await exportTo('csv', '0.5', 'gt.csv');
    expect(sorted(await readCsv(csv))).toEqual(EVERY_LABEL);
    const [header, ...rows] = parseCsv(await readFile(csv, 'utf8')).filter((r) => r.length > 1);
    const at = header?.indexOf('score') ?? -1;
    expect(at).toBeGreaterThanOrEqual(0);
    expect(rows.map((r) => r[at])).toEqual(['', '', '', '']);
  });

  it('shows the boxes without a score in the review, the model keeping its own', () => {
    withStore((store) => {
      const review = new ReviewService(store);
      const boxes = ids.flatMap((id) => review.item(id, 'objects').boxes).filter((b) => !b.deleted);
      expect(boxes.map((b) => b.score)).toEqual([null, null, null, null]);
      expect(boxes.map((b) => b.model?.score ?? null).sort()).toEqual([0.2, 0.3, 0.9, null]);
    });
  });

  it('coco-results still writes the model its own boxes and scores, the deleted one too', async () => {
    const out = await exportTo('coco-results', '0', 'results.json');
    const results = JSON.parse(await readFile(out, 'utf8')) as { score: number }[];
    expect(results.map((d) => d.score).sort()).toEqual([0.1, 0.2, 0.3, 0.9]);
  });
});
