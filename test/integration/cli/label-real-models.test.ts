/**
 * `labeldesk label <folder> --yes` as a user first runs it: the default embedded service with the
 * real models, on OpenCV's sample photos and clip plus a duplicate and two broken files.
 */
import Database from 'better-sqlite3';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipDurationMs, realMediaFolder, type RealFolder } from '../../support/cli-media.js';
import { readCoco } from '../../support/cli-exports.js';
import {
  cliEnv,
  cliHome,
  cliJson,
  lastJson,
  runCli,
  type StatusJson,
  type SummaryJson,
} from '../../support/cli-run.js';

interface CatalogSolution {
  id: string;
  frameCost: { image: number; videoFrame: number };
}
interface Catalog {
  solutions: CatalogSolution[];
  limits: { videoSampleFps: number };
}

/** The catalog the run used, as the CLI cached it for offline exports. */
function cachedCatalog(home: string): Catalog {
  const db = new Database(join(home, 'library.sqlite'), { readonly: true });
  try {
    const row = db.prepare('SELECT body FROM catalog_snapshots ORDER BY id DESC LIMIT 1').get() as {
      body: string;
    };
    return JSON.parse(row.body) as Catalog;
  } finally {
    db.close();
  }
}

let t: { home: string; dir: string; remove: () => Promise<void> };
let media: RealFolder;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await cliHome();
  const folder = join(t.dir, 'match-day');
  await mkdir(folder);
  media = await realMediaFolder(folder);
  env = cliEnv(t.home);
});
afterAll(() => t.remove());

describe('labeldesk label with the real models', () => {
  it('labels the good files, reuses the duplicate, reports the broken ones and exits 1; a second run spends nothing', async () => {
    const before = await cliJson<StatusJson>(['status'], env);

    const first = await runCli(['label', media.dir, '--yes'], env, { timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(1);
    const line = first.stdout.split('\n')[0] ?? '';
    const spent = Number(/frames spent (\d+)/.exec(line)?.[1]);
    expect(line).toMatch(
      /^Labelled 4 · reused 1 · failed 2 · uncertain 0 · waiting for credits 0 · frames spent \d+$/,
    );
    // Each broken file is named with a code and a sentence a person can act on.
    for (const bad of [media.corruptJpeg, media.textAsPng]) {
      expect(first.stdout).toMatch(
        new RegExp(`^  ${bad.replace(/[.]/g, '\\.')} — [a-z_]+: [A-Z].{10,}$`, 'm'),
      );
    }
    expect(first.stdout).not.toContain(media.duplicate);

    // What it spent is what the catalog prices: three photos and every sampled frame of the clip.
    const catalog = cachedCatalog(t.home);
    const objects = catalog.solutions.find((s) => s.id === 'objects') as CatalogSolution;
    const clipFrames = Math.ceil(
      ((await clipDurationMs(media.good.clip)) / 1000) * catalog.limits.videoSampleFps,
    );
    expect(spent).toBe(3 * objects.frameCost.image + clipFrames * objects.frameCost.videoFrame);
    const after = await cliJson<StatusJson>(['status'], env);
    expect(before.remaining - after.remaining).toBe(spent);

    // The boxes are stored: Messi and the ball, in pixels of the photo.
    const coco = join(t.dir, 'boxes.json');
    const exported = await runCli(['export', '--format', 'coco', '--out', coco], env);
    expect(exported.code, exported.stderr).toBe(0);
    const { doc, boxes } = await readCoco(coco);
    const messi = boxes.filter((b) => b.path === media.good.messi);
    expect(messi.map((b) => b.label)).toEqual(expect.arrayContaining(['person', 'sports ball']));
    const messiImage = doc.images.find((i) => i.absolute_path === media.good.messi);
    expect(messiImage).toMatchObject({ width: 548, height: 342 });
    for (const b of messi) {
      expect(b.xmin).toBeGreaterThanOrEqual(0);
      expect(b.xmax).toBeLessThanOrEqual(548);
      expect(b.ymax).toBeLessThanOrEqual(342);
    }
    // The duplicate has the same boxes without having been sent.
    const copy = boxes.filter((b) => b.path === media.duplicate);
    expect(copy.map((b) => [b.label, b.xmin, b.ymin])).toEqual(
      messi.map((b) => [b.label, b.xmin, b.ymin]),
    );

    // Again: everything is reused, nothing is spent, the broken files are still reported.
    const second = await runCli(['label', media.dir, '--yes', '--json'], env, {
      timeoutMs: 120_000,
    });
    expect(second.code).toBe(1);
    const again = lastJson<SummaryJson>(second.stdout);
    expect(again).toMatchObject({ labelled: 0, reused: 5, framesSpent: 0, exitCode: 1 });
    expect(again.failed.map((f) => f.path).sort()).toEqual(
      [media.corruptJpeg, media.textAsPng].sort(),
    );
    expect((await cliJson<StatusJson>(['status'], env)).remaining).toBe(after.remaining);

    // Only the good files: all done, exit 0.
    const good = await runCli(
      ['label', ...Object.values(media.good), media.duplicate, '--yes', '--json'],
      env,
      { timeoutMs: 120_000 },
    );
    expect(good.code, good.stderr).toBe(0);
    expect(lastJson<SummaryJson>(good.stdout)).toMatchObject({
      labelled: 0,
      reused: 5,
      failed: [],
      framesSpent: 0,
      exitCode: 0,
    });
  }, 240_000);
});
