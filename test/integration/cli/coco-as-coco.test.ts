/**
 * A COCO dataset as COCO tools make it (odd image ids, category ids with gaps, a crowd region,
 * licenses and info), imported with `labeldesk import`: the crowd region stays one (not counted
 * by `evaluate`, exported back as `iscrowd: 1`); the export gives back the image, category and
 * annotation ids and the fields LabelDesk does not edit; a COCO results export is keyed to them.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';

type Home = Awaited<ReturnType<typeof cliHome>>;
let home: Home;
let env: NodeJS.ProcessEnv;
let folder: string;

/** The ground truth, as a person would have it from COCO. */
function groundTruth() {
  return {
    info: { description: 'a COCO subset', year: 2017, contributor: 'COCO Consortium' },
    licenses: [{ id: 4, name: 'Attribution-NonCommercial License', url: 'http://example.org/4' }],
    images: [
      {
        id: 397133,
        file_name: 'photo0.jpg',
        width: 160,
        height: 120,
        license: 4,
        coco_url: 'http://images.cocodataset.org/val2017/000000397133.jpg',
      },
      { id: 37777, file_name: 'photo1.jpg', width: 176, height: 128, license: 4 },
    ],
    annotations: [
      {
        id: 900100,
        image_id: 397133,
        category_id: 1,
        bbox: [10, 10, 40, 50],
        area: 1735.5,
        iscrowd: 0,
        segmentation: [[10, 10, 50, 10, 50, 60, 10, 60]],
      },
      {
        id: 900101,
        image_id: 397133,
        category_id: 1,
        bbox: [80, 40, 60, 60],
        area: 2900,
        iscrowd: 1,
        segmentation: { counts: [0, 5, 10], size: [120, 160] },
      },
      {
        id: 900102,
        image_id: 37777,
        category_id: 62,
        bbox: [20, 30, 40, 40],
        area: 1500,
        iscrowd: 0,
        segmentation: [[20, 30, 60, 30, 60, 70, 20, 70]],
      },
    ],
    categories: [
      { id: 1, name: 'person', supercategory: 'person' },
      { id: 62, name: 'chair', supercategory: 'furniture' },
      { id: 90, name: 'toothbrush', supercategory: 'indoor' },
    ],
  };
}

beforeAll(async () => {
  home = await cliHome();
  env = cliEnv(home.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  folder = join(home.dir, 'val2017');
  await mkdir(folder);
  await distinctJpegs(folder, 2);
  const r = await runCli(['label', folder, '--yes'], env);
  expect(r.code, r.stderr).toBe(0);
  const gt = join(home.dir, 'instances_val2017.json');
  await writeFile(gt, JSON.stringify(groundTruth()));
  const i = await runCli(['import', gt, '--format', 'coco', '--json'], env);
  expect(i.code, i.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await home?.remove();
});

interface EvalClass {
  label: string;
  tp: number;
  fn: number;
}

describe('COCO as COCO defines it', () => {
  it('does not count a crowd region as an object to find', async () => {
    const r = await runCli(['evaluate', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJson(r.stdout) as { classes: EvalClass[] };
    const person = report.classes.find((c) => c.label === 'person');
    // One ordinary person to find; the crowd region is none.
    expect(person && person.tp + person.fn).toBe(1);
  });

  it('exports a crowd region back as iscrowd 1', async () => {
    const out = join(home.dir, 'export.json');
    const r = await runCli(['export', '--format', 'coco', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(await readFile(out, 'utf8')) as {
      annotations: { bbox: number[]; iscrowd: number }[];
    };
    const crowd = doc.annotations.filter((a) => a.iscrowd === 1);
    expect(crowd.map((a) => a.bbox)).toEqual([[80, 40, 60, 60]]);
    expect(doc.annotations).toHaveLength(3);
  });
});

interface CocoOut {
  info: Record<string, unknown>;
  licenses: unknown[];
  images: Record<string, unknown>[];
  annotations: Record<string, unknown>[];
  categories: Record<string, unknown>[];
}

describe('COCO ids and fields kept', () => {
  it('exports the ids and untouched fields the import read', async () => {
    const out = join(home.dir, 'ids.json');
    const r = await runCli(['export', '--format', 'coco', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(await readFile(out, 'utf8')) as CocoOut;
    const gt = groundTruth();
    expect(doc.licenses).toEqual(gt.licenses);
    expect(doc.info).toMatchObject(gt.info);
    const images = doc.images.map(({ absolute_path: _a, ...i }) => i);
    expect(images.sort((a, b) => Number(a['id']) - Number(b['id']))).toEqual(
      [...gt.images].sort((a, b) => a.id - b.id),
    );
    // Every category of the dataset, its ids with their gaps, then none colliding.
    for (const c of gt.categories) expect(doc.categories).toContainEqual(c);
    const ids = doc.categories.map((c) => c['id']);
    expect(new Set(ids).size).toBe(ids.length);
    const annotations = doc.annotations.map(({ score: _s, ...a }) => a);
    expect(annotations.sort((a, b) => Number(a['id']) - Number(b['id']))).toEqual(gt.annotations);
  });

  it('writes the model boxes as COCO results keyed to the kept ids', async () => {
    const out = join(home.dir, 'results.json');
    const r = await runCli(['export', '--format', 'coco-results', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>[];
    expect(results.length).toBeGreaterThan(0);
    const gt = groundTruth();
    const imageIds = new Set(gt.images.map((i) => i.id));
    for (const d of results) {
      expect(Object.keys(d).sort()).toEqual(['bbox', 'category_id', 'image_id', 'score']);
      expect(imageIds.has(d['image_id'] as number)).toBe(true);
      expect(typeof d['score']).toBe('number');
    }
  });
});

describe('boxes a person made have no score', () => {
  it('writes a drawn box without a score and keeps it past --min-score', async () => {
    const out = join(home.dir, 'sure.json');
    const r = await runCli(
      ['export', '--format', 'coco', '--min-score', '0.999', '--out', out],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(await readFile(out, 'utf8')) as CocoOut;
    // The crowd region is always drawn (never put on a model box): it has no model score.
    const crowd = doc.annotations.find((a) => a['id'] === 900101);
    expect(crowd).toBeDefined();
    expect(crowd && 'score' in crowd).toBe(false);
  });
});
