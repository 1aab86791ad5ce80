/**
 * `labeldesk export` from the command line, offline (no service runs while exporting): each of the
 * five formats read back, the filters, and boxes in pixels of the image as a viewer shows it
 * (a JPEG with EXIF orientation 6 is exported with its width and height swapped).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import {
  readCoco,
  readCsv,
  readMot,
  readVoc,
  readYolo,
  type ReadBox,
} from '../../support/cli-exports.js';
import { distinctJpegs, orientedJpeg } from '../../support/cli-media.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { clip } from '../../support/synth-media.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let folder: string;
let rotated: string;
let walk: string;
let outN = 0;

/** Runs `labeldesk export` into a fresh path; returns the path and the CLI's report. */
async function exportTo(format: string, ...extra: string[]) {
  const out = join(
    t.dir,
    `out-${++outN}-${format}${format === 'coco' ? '.json' : format === 'csv' ? '.csv' : ''}`,
  );
  const r = await runCli(['export', '--format', format, '--out', out, ...extra], env);
  expect(r.code, r.stderr).toBe(0);
  return { out, report: r.stdout };
}

const key = (b: ReadBox) => `${b.path}|${b.label}|${b.xmin}|${b.ymin}`;

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  folder = join(t.dir, 'set');
  await mkdir(folder);
  await distinctJpegs(folder, 2);
  rotated = join(folder, 'portrait.jpg');
  await orientedJpeg(rotated, 320, 240);
  walk = await clip(folder, 'walk.mp4', 2, '160x120', 10);
  const r = await runCli(['label', folder, '--yes'], env);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^Labelled 4 · /);
  // From here on no service runs: `label` has exited and `export` starts none.
});
afterAll(() => t.remove());

describe('labeldesk export', () => {
  it('COCO: images in their displayed size, an EXIF-rotated JPEG with width and height swapped', async () => {
    const { out, report } = await exportTo('coco');
    const { doc, boxes } = await readCoco(out);
    // The clip is not representable as COCO and is said so.
    expect(report).toMatch(
      new RegExp(
        `^Exported ${boxes.length} boxes from 3 files to .* \\(1 skipped: not representable as coco\\)$`,
        'm',
      ),
    );
    expect(boxes.length).toBeGreaterThan(0);
    const meta = await sharp(rotated).metadata();
    expect(meta.orientation).toBe(6);
    const image = doc.images.find((i) => i.absolute_path === rotated);
    expect(image).toMatchObject({ width: meta.height, height: meta.width });
    expect(boxes.filter((b) => b.path === rotated).length).toBeGreaterThan(0);
    for (const b of boxes) {
      expect(b.xmin).toBeGreaterThanOrEqual(0);
      expect(b.ymin).toBeGreaterThanOrEqual(0);
      expect(b.xmax).toBeLessThanOrEqual(b.width);
      expect(b.ymax).toBeLessThanOrEqual(b.height);
      expect(b.xmax).toBeGreaterThan(b.xmin);
    }
    // Category ids follow the catalog's class list (cached at labelling time): person is 1.
    expect(doc.categories[0]).toMatchObject({ id: 1, name: 'person' });
    expect(doc.categories).toHaveLength(80);
  });

  it('CSV, YOLO, VOC and MOT carry the same boxes as COCO', async () => {
    const coco = (await readCoco((await exportTo('coco')).out)).boxes;
    const csv = await readCsv((await exportTo('csv')).out);
    const csvImages = csv.filter((b) => b.path !== walk);
    const csvClip = csv.filter((b) => b.path === walk);
    expect(csvImages.map(key).sort()).toEqual(coco.map(key).sort());
    expect(csvClip.length).toBeGreaterThan(0);
    for (const b of csvClip) {
      expect(b).toMatchObject({ width: 160, height: 120 });
      expect(b.frame).toBeGreaterThanOrEqual(0);
    }

    const yolo = await readYolo((await exportTo('yolo')).out);
    expect(new Set(yolo.files.values())).toEqual(new Set(coco.map((b) => b.path)));
    expect(yolo.boxes).toHaveLength(coco.length);
    const sizes = new Map(coco.map((b) => [b.path, { w: b.width, h: b.height }]));
    const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;
    for (const y of yolo.boxes) {
      const size = sizes.get(y.path) as { w: number; h: number };
      const match = coco.find(
        (c) =>
          c.path === y.path &&
          c.label === y.label &&
          near(c.xmin, y.xmin * size.w, 0.05) &&
          near(c.ymax, y.ymax * size.h, 0.05),
      );
      expect(match, `${y.path} ${y.label}`).toBeDefined();
    }

    const voc = await readVoc((await exportTo('voc')).out);
    expect(voc).toHaveLength(coco.length);
    for (const v of voc) {
      expect(Number.isInteger(v.xmin) && Number.isInteger(v.ymax)).toBe(true);
      expect({ w: v.width, h: v.height }).toEqual(sizes.get(v.path));
      const match = coco.find(
        (c) =>
          c.path === v.path &&
          c.label === v.label &&
          near(c.xmin, v.xmin, 0.5) &&
          near(c.ymax, v.ymax, 0.5),
      );
      expect(match, `${v.path} ${v.label}`).toBeDefined();
    }

    const mot = await readMot((await exportTo('mot')).out);
    expect(mot).toHaveLength(csvClip.length);
    for (const m of mot) expect(m).toMatchObject({ path: walk, width: 160, height: 120 });
    const motFrames = mot.map((m) => m.frame).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(motFrames).toEqual(csvClip.map((c) => (c.frame ?? 0) + 1).sort((a, b) => a - b));
  });

  it('--min-score, --classes and --only-accepted filter the boxes', async () => {
    const all = await readCsv((await exportTo('csv')).out);
    const scores = all.map((b) => b.score as number).sort((a, b) => a - b);
    const cut = scores[Math.floor(scores.length / 2)] as number;
    const high = await readCsv((await exportTo('csv', '--min-score', String(cut))).out);
    expect(high.length).toBeGreaterThan(0);
    expect(high.length).toBeLessThan(all.length);
    expect(high.every((b) => (b.score as number) >= cut)).toBe(true);
    expect(high.length).toBe(all.filter((b) => (b.score as number) >= cut).length);

    const labels = [...new Set(all.map((b) => b.label))];
    const one = labels[0] as string;
    // A label of another solution is known (it just matches nothing here); a typo is refused.
    const only = await readCsv((await exportTo('csv', '--classes', ` ${one} ,face`)).out);
    expect(only.length).toBe(all.filter((b) => b.label === one).length);
    expect(only.every((b) => b.label === one)).toBe(true);

    // Nothing is accepted yet: nothing is written, and it says why (issue 23 §4), exit non-zero.
    const noneOut = join(t.dir, 'none-accepted.json');
    const none = await runCli(
      ['export', '--format', 'coco', '--out', noneOut, '--only-accepted'],
      env,
    );
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/none of them is accepted yet \(only accepted\)/);
    expect(existsSync(noneOut)).toBe(false);

    // A reviewer accepts two boxes and rejects one (what the desktop app does).
    const store = openLibraryStore(join(t.home, 'library.sqlite'));
    let accepted: string[];
    try {
      const items = [...store.exportItems({ solution: 'objects', kind: 'image' })];
      const boxes = items.flatMap((i) => i.detections.map((d) => ({ path: i.media.path, d })));
      const [a, b, rejected] = boxes as [
        (typeof boxes)[number],
        (typeof boxes)[number],
        (typeof boxes)[number],
      ];
      store.results.setReview(a.d.id, 'accepted');
      store.results.setReview(b.d.id, 'accepted');
      store.results.setReview(rejected.d.id, 'rejected');
      accepted = [a, b].map((x) => `${x.path}|${x.d.label}`).sort();
    } finally {
      store.close();
    }
    const reviewed = await readCoco((await exportTo('coco', '--only-accepted')).out);
    expect(reviewed.boxes.map((b) => `${b.path}|${b.label}`).sort()).toEqual(accepted);
    // A rejected box is left out of every export.
    const afterReview = await readCsv((await exportTo('csv')).out);
    expect(afterReview.length).toBe(all.length - 1);
  });

  it('refuses to mix an export into a folder that holds other files', async () => {
    const out = join(t.dir, 'busy');
    await mkdir(out);
    await writeFile(join(out, 'keep.txt'), 'mine');
    const r = await runCli(['export', '--format', 'yolo', '--out', out], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('export folder is not empty');
  });
});
