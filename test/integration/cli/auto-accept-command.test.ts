/**
 * `labeldesk auto-accept` as a user runs it (child processes of the compiled CLI): thresholds
 * from the reviewed files, a dry run that counts, `--yes` that accepts on the files not reviewed
 * yet, an export that includes the rule's boxes unless `--by-person`, and `--undo`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeTarget } from '../../../electron/application/evaluation/quality-target.js';
import { ReviewService } from '../../../electron/core/review/review-service.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { DetectionInput } from '../../../electron/core/store/store-types.js';
import { readCsv } from '../../support/cli-exports.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
const A = { x: 0.1, y: 0.1, w: 0.3, h: 0.3 };
const B = { x: 0.5, y: 0.5, w: 0.2, h: 0.2 };
const C = { x: 0.6, y: 0.1, w: 0.2, h: 0.2 };

const det = (label: string, score: number, bbox: typeof A): DetectionInput => ({
  frameIndex: 0,
  timeMs: null,
  label,
  classId: null,
  score,
  bbox,
});

interface AcceptJson {
  batchId: number | null;
  boxes: number;
  files: number;
  classes: { label: string; threshold: number }[];
}

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home);
  const store = openLibraryStore(join(t.home, 'library.sqlite'));
  try {
    const folder = store.folders.add(join(t.dir, 'set'));
    const media = (name: string) => ({
      folderId: folder.id,
      path: join(t.dir, 'set', name),
      kind: 'image' as const,
      size: 1000,
      mtimeMs: 1,
      contentHash: `h-${name}`,
      width: 640,
      height: 480,
      orientation: 1,
      durationMs: null,
      fps: null,
    });
    const save = (name: string, detections: DetectionInput[]) =>
      store.results.save({
        contentHash: `h-${name}`,
        solution: 'objects',
        serviceUrl: 'embedded',
        analysedWidth: 640,
        analysedHeight: 480,
        model: 'centernet',
        detections,
      });
    // 100 reviewed files: a confident person, always right (enough evidence for 95 %), and a
    // cat at 0.4 that a person rejected each time (so cats get no threshold).
    const reviewed = Array.from({ length: 100 }, (_, i) => `r${String(i).padStart(3, '0')}.jpg`);
    // Five files nobody reviewed: a confident person, an unsure one, and a confident dog.
    const fresh = Array.from({ length: 5 }, (_, i) => `u${i}.jpg`);
    const ids = store.media.upsertMany([...reviewed, ...fresh].map(media));
    reviewed.forEach((n, i) =>
      save(n, [det('person', 0.8 + (i % 10) / 100, A), det('cat', 0.4, C)]),
    );
    fresh.forEach((n) =>
      save(n, [det('person', 0.95, A), det('person', 0.3, B), det('dog', 0.9, C)]),
    );
    const review = new ReviewService(store);
    for (const id of ids.slice(0, 100)) {
      const cat = review.item(id, 'objects').boxes.find((b) => b.label === 'cat');
      review.edit(id, 'objects', {
        kind: 'reject',
        box: { detectionId: cat?.detectionId ?? null, correctionId: null },
      });
    }
    expect(store.reviewed.markReviewed(ids.slice(0, 100), 'objects', 'person')).toHaveLength(100);
    // A person accepts the dog on u0: the one box "only accepted by a person" keeps.
    const u0 = ids[100] as number;
    const dog = review.item(u0, 'objects').boxes.find((b) => b.label === 'dog');
    review.edit(u0, 'objects', {
      kind: 'accept',
      box: { detectionId: dog?.detectionId ?? null, correctionId: null },
    });
  } finally {
    store.close();
  }
});
afterAll(() => t.remove());

async function exported(name: string, ...flags: string[]) {
  const out = join(t.dir, name);
  const r = await runCli(['export', '--format', 'csv', '--out', out, ...flags], env);
  expect(r.code, r.stderr).toBe(0);
  return (await readCsv(out)).map((b) => `${b.path.replace(/.*\//, '')}:${b.label}:${b.score}`);
}

describe('labeldesk auto-accept', () => {
  it('counts without --yes, accepts with it, exports with and without --by-person, undoes', async () => {
    const evaluated = await runCli(['evaluate', '--json'], env);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(lastJson<{ reviewedFiles: number }>(evaluated.stdout).reviewedFiles).toBe(100);

    const dry = await runCli(['auto-accept', '--target', '0.95', '--json'], env);
    expect(dry.code, dry.stderr).toBe(0);
    const counted = lastJson<AcceptJson>(dry.stdout);
    expect(counted).toMatchObject({ batchId: null, boxes: 5, files: 5 });
    expect(counted.classes.map((c) => c.label)).toEqual(['person']);
    expect(counted.classes[0]?.threshold).toBeLessThanOrEqual(0.95);
    expect(await exported('before.csv', '--only-accepted')).toEqual(['u0.jpg:dog:0.9']);

    const done = await runCli(['auto-accept', '--target', '0.95', '--yes', '--json'], env);
    expect(done.code, done.stderr).toBe(0);
    expect(lastJson<AcceptJson>(done.stdout)).toMatchObject({ boxes: 5, files: 5 });
    expect(lastJson<AcceptJson>(done.stdout).batchId).toBeGreaterThan(0);
    expect(await exported('all.csv', '--only-accepted')).toEqual([
      'u0.jpg:person:0.95',
      'u0.jpg:dog:0.9',
      ...[1, 2, 3, 4].map((i) => `u${i}.jpg:person:0.95`),
    ]);
    expect(await exported('people.csv', '--only-accepted', '--by-person')).toEqual([
      'u0.jpg:dog:0.9',
    ]);
    // Nothing left to accept: a second run changes nothing.
    const again = await runCli(['auto-accept', '--yes', '--json'], env);
    expect(lastJson<AcceptJson>(again.stdout)).toMatchObject({ batchId: null, boxes: 0 });

    const undo = await runCli(['auto-accept', '--undo'], env);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain('Undid 5 boxes.');
    expect(await exported('after.csv', '--only-accepted')).toEqual(['u0.jpg:dog:0.9']);
  });

  it('without --target uses the target set in Quality', async () => {
    const store = openLibraryStore(join(t.home, 'library.sqlite'));
    try {
      storeTarget(store, 'objects', 0.99);
    } finally {
      store.close();
    }
    // 100 right boxes cannot carry 99 %: no class has a threshold, nothing would be accepted.
    const dry = await runCli(['auto-accept', '--json'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(lastJson<AcceptJson>(dry.stdout)).toMatchObject({ boxes: 0, classes: [] });
    const told = await runCli(['auto-accept', '--target', '0.95', '--json'], env);
    expect(lastJson<AcceptJson>(told.stdout).boxes).toBe(5);
  });

  it('refuses a target outside 0.5–0.999 and --by-person alone (exit 2)', async () => {
    const bad = await runCli(['auto-accept', '--target', '1.5'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--target takes a precision');
    const alone = await runCli(
      ['export', '--format', 'csv', '--out', join(t.dir, 'x.csv'), '--by-person'],
      env,
    );
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--by-person works with --only-accepted');
  });
});
