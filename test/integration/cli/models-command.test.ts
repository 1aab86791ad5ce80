/**
 * Issue 27 §2 from the command line: `labeldesk models add|list|remove`, then a folder labelled
 * with the own model through the embedded service and exported, as a person would.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../support/cli-exports.js';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { ownModels } from '../../support/own-model-files.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home);
  await writeFile(join(t.dir, 'pets.onnx'), ownModels.yolov8());
  await writeFile(join(t.dir, 'e2e.onnx'), ownModels.end2end());
});
afterAll(() => t.remove());

describe('labeldesk models', () => {
  it('adds a model saying what it assumed, lists it, refuses a clash and a wrong --type', async () => {
    const added = await runCli(
      ['models', 'add', join(t.dir, 'pets.onnx'), '--frame-cost', '2'],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(
      'No --type given; assumed yolov8: one column per box, 4 + classes rows (output [1, 6, 84]).',
    );
    expect(added.stdout).toContain(
      'Added pets  yolov8  64×64  2 classes (metadata)  2 frame(s)  pets.onnx',
    );
    const again = await runCli(['models', 'add', join(t.dir, 'pets.onnx')], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('model_id_taken: A model "pets" is already added');
    const wrong = await runCli(['models', 'add', join(t.dir, 'e2e.onnx'), '--type', 'yolov8'], env);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('model_type_mismatch: e2e.onnx cannot be a yolov8 model');
    const list = await runCli(['models', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toMatchObject([
      { id: 'pets', type: 'yolov8', classes: ['cat', 'dog'] },
    ]);
  });

  it('labels a folder with the own model and exports its boxes; remove takes it away', async () => {
    const folder = join(t.dir, 'photos');
    await mkdir(folder);
    await distinctJpegs(folder, 2);
    const label = await runCli(['label', folder, '--solution', 'pets', '--yes'], env, {
      timeoutMs: 180_000,
    });
    expect(label.code, label.stderr).toBe(0);
    expect(label.stdout).toMatch(/^Labelled 2 .* frames spent 4$/m);
    const out = join(t.dir, 'pets.csv');
    const exported = await runCli(
      ['export', '--format', 'csv', '--out', out, '--solution', 'pets'],
      env,
    );
    expect(exported.code, exported.stderr).toBe(0);
    const rows = await readCsv(out);
    expect(rows.map((r) => [r.label, r.score])).toEqual([
      ['dog', 0.9],
      ['cat', 0.6],
      ['dog', 0.9],
      ['cat', 0.6],
    ]);
    const removed = await runCli(['models', 'remove', 'pets'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await runCli(['models', 'list'], env)).stdout).toBe(
      'No own models (labeldesk models add FILE.onnx).\n',
    );
  }, 240_000);
});
