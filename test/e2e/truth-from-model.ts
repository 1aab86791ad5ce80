/** For quality tests: ground truth made from the model's own COCO export, rewritten, then imported. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../support/cli-run.js';

export interface CocoDoc {
  images: { id: number }[];
  annotations: { category_id: number; image_id: number; bbox: number[] }[];
  categories: { id: number; name: string }[];
}

/** Exports the labelled library to COCO, lets `rewrite` change it, and imports it as truth. */
export async function importTruthFromModel(
  folder: string,
  env: NodeJS.ProcessEnv,
  rewrite: (coco: CocoDoc) => CocoDoc,
): Promise<void> {
  const out = join(folder, '..', 'model.json');
  const exported = await runCli(['export', '--format', 'coco', '--out', out], env);
  expect(exported.code, exported.stderr).toBe(0);
  const truth = join(folder, '..', 'truth.json');
  await writeFile(
    truth,
    JSON.stringify(rewrite(JSON.parse(await readFile(out, 'utf8')) as CocoDoc)),
  );
  const imported = await runCli(['import', '--format', 'coco', truth], env);
  expect(imported.code, imported.stderr).toBe(0);
}
