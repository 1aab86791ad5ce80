/**
 * Issue 27 §2: an own ONNX model is measured on reviewed files like any solution (the Quality
 * screen and `labeldesk evaluate` share the evaluation). The test model answers a dog at 0.9 and
 * a cat at 0.6 on every image; a person keeps both on one photo and rejects the cat on the other.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { ReviewService } from '../../../electron/core/review/review-service.js';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';
import { ownModels } from '../../support/own-model-files.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home);
  await writeFile(join(t.dir, 'pets.onnx'), ownModels.yolov8());
});
afterAll(() => t.remove());

interface ClassFigures {
  label: string;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
}

describe('an own model on the Quality figures', () => {
  it('is evaluated on the reviewed files of its solution', async () => {
    const added = await runCli(['models', 'add', join(t.dir, 'pets.onnx')], env);
    expect(added.code, added.stderr).toBe(0);
    const folder = join(t.dir, 'photos');
    await mkdir(folder);
    const files = await distinctJpegs(folder, 2);
    const label = await runCli(['label', folder, '--solution', 'pets', '--yes'], env, {
      timeoutMs: 180_000,
    });
    expect(label.code, label.stderr).toBe(0);

    const store = openLibraryStore(join(t.home, 'library.sqlite'));
    try {
      const review = new ReviewService(store);
      const ids = files.map((file) => store.media.byPath(file)!.id);
      const [first, second] = ids as [number, number];
      const boxes = (id: number) => review.item(id, 'pets').boxes;
      expect(boxes(first).map((b) => [b.label, b.score])).toEqual([
        ['dog', 0.9],
        ['cat', 0.6],
      ]);
      const ref = (b: { detectionId: number | null; correctionId: number | null }) => ({
        detectionId: b.detectionId,
        correctionId: b.correctionId,
      });
      const cat = boxes(second).find((b) => b.label === 'cat')!;
      review.edit(second, 'pets', { kind: 'reject', box: ref(cat) });
      expect(store.reviewed.markReviewed(ids, 'pets', 'person')).toHaveLength(2);
    } finally {
      store.close();
    }

    const evaluated = await runCli(['evaluate', '--solution', 'pets', '--json'], env);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    const got = lastJson<{ reviewedFiles: number; classes: ClassFigures[] }>(evaluated.stdout);
    expect(got.reviewedFiles).toBe(2);
    expect(got.classes.find((c) => c.label === 'dog')).toMatchObject({ tp: 2, fp: 0, fn: 0 });
    expect(got.classes.find((c) => c.label === 'cat')).toMatchObject({
      tp: 1,
      fp: 1,
      fn: 0,
      precision: 0.5,
    });
  }, 240_000);
});
