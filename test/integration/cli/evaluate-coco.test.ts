/**
 * `labeldesk evaluate --coco` on a library holding the pycocotools crosscheck dataset: the model's
 * boxes are its results.json, the ground truth is its instances.json imported with `labeldesk
 * import` (crowd regions, `area` fields, category ids with gaps). The twelve figures printed equal
 * what pycocotools 2.0.11 printed for the same files, in JSON and in the text table.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { COCO_STATS } from '../../../electron/shared/coco-stats.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';
import { PYCOCOTOOLS } from '../../unit/core/evaluation/coco-crosscheck/pycocotools-figures.js';

const HERE = join(import.meta.dirname, '../../unit/core/evaluation/coco-crosscheck');
const INSTANCES = join(HERE, 'instances.json');

interface Instances {
  images: { id: number; file_name: string; width: number; height: number }[];
  categories: { id: number; name: string }[];
}
interface Result {
  image_id: number;
  category_id: number;
  bbox: [number, number, number, number];
  score: number;
}

let t: Awaited<ReturnType<typeof cliHome>>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home);
  const gt = JSON.parse(readFileSync(INSTANCES, 'utf8')) as Instances;
  const results = JSON.parse(readFileSync(join(HERE, 'results.json'), 'utf8')) as Result[];
  const names = new Map(gt.categories.map((c) => [c.id, c.name]));
  const store = openLibraryStore(join(t.home, 'library.sqlite'));
  try {
    const folder = store.folders.add(join(t.dir, 'val2017'));
    store.media.upsertMany(
      gt.images.map((img) => ({
        folderId: folder.id,
        path: join(t.dir, 'val2017', img.file_name),
        kind: 'image' as const,
        size: 1000,
        mtimeMs: 1,
        contentHash: `h${img.id}`,
        width: img.width,
        height: img.height,
        orientation: 1,
        durationMs: null,
        fps: null,
      })),
    );
    for (const img of gt.images) {
      store.results.save({
        contentHash: `h${img.id}`,
        solution: 'objects',
        serviceUrl: 'embedded',
        analysedWidth: img.width,
        analysedHeight: img.height,
        model: 'centernet',
        detections: results
          .filter((r) => r.image_id === img.id)
          .map(({ category_id, score, bbox: [x, y, w, h] }) => ({
            frameIndex: 0,
            timeMs: null,
            label: names.get(category_id) as string,
            classId: null,
            score,
            bbox: { x: x / img.width, y: y / img.height, w: w / img.width, h: h / img.height },
          })),
      });
    }
  } finally {
    store.close();
  }
  const i = await runCli(['import', INSTANCES, '--format', 'coco', '--json'], env);
  expect(i.code, i.stderr).toBe(0);
}, 120_000);

afterAll(() => t.remove());

describe('labeldesk evaluate --coco', () => {
  it('prints the twelve figures pycocotools gives for the same files (JSON field coco)', async () => {
    const r = await runCli(['evaluate', '--coco', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const got = lastJson<{ map: number; coco: Record<string, number> }>(r.stdout);
    expect(got.map).toBeCloseTo(PYCOCOTOOLS.map, 9);
    COCO_STATS.forEach((s, i) => {
      expect(got.coco[s.key], s.name).toBeCloseTo(PYCOCOTOOLS.stats[i] as number, 9);
    });
  });

  it('prints them as COCOeval lays them out, and only when asked', async () => {
    const r = await runCli(['evaluate', '--coco'], env);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    COCO_STATS.forEach((s, i) => {
      const line = lines.find((l) => l.startsWith(`${s.name} `));
      expect(line, s.name).toMatch(/maxDets=/);
      expect(line?.endsWith(`= ${(PYCOCOTOOLS.stats[i] as number).toFixed(3)}`), line).toBe(true);
    });
    const plain = await runCli(['evaluate', '--json'], env);
    expect(Object.keys(lastJson(plain.stdout))).not.toContain('coco');
  });
});

describe('labeldesk evaluate --min-score (issue 24 §2)', () => {
  interface Figures {
    map50: number;
    map: number;
    classes: { label: string; tp: number; fp: number; ap50: number | null; ap: number | null }[];
  }
  const figures = async (...flags: string[]) => {
    const r = await runCli(['evaluate', '--json', ...flags], env);
    expect(r.code, r.stderr).toBe(0);
    return lastJson<Figures>(r.stdout);
  };

  it('changes the counts but not AP50/AP, and its --help says so', async () => {
    const all = await figures();
    const strict = await figures('--min-score', '0.5');
    const count = (f: Figures) => f.classes.reduce((n, c) => n + c.tp + c.fp, 0);
    expect(count(strict)).toBeLessThan(count(all));
    expect(strict.map50).toBe(all.map50);
    expect(strict.map).toBe(all.map);
    const aps = (f: Figures) => f.classes.map((c) => [c.label, c.ap50, c.ap]);
    expect(aps(strict)).toEqual(aps(all));
    const help = await runCli(['evaluate', '--help'], env);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(
      /--min-score .*changes the counts.*not AP50\/AP/,
    );
  });
});
