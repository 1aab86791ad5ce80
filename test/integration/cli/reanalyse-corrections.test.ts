/**
 * A person's corrections survive `labeldesk label --reanalyse` (which sends the files again and
 * spends frames) and come out of `labeldesk export --only-accepted` in pixels of the images as a
 * viewer shows them (an EXIF-rotated JPEG with its sides swapped).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewService } from '../../../electron/core/review/review-service.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { readCsv, readMot } from '../../support/cli-exports.js';
import { distinctJpegs, orientedJpeg } from '../../support/cli-media.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';
import { clip } from '../../support/synth-media.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let folder: string;
let rotated: string;

const withStore = <T>(
  fn: (review: ReviewService, s: ReturnType<typeof openLibraryStore>) => T,
): T => {
  const store = openLibraryStore(join(t.home, 'library.sqlite'));
  try {
    return fn(new ReviewService(store), store);
  } finally {
    store.close();
  }
};

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  folder = join(t.dir, 'set');
  await mkdir(folder);
  await distinctJpegs(folder, 1);
  rotated = join(folder, 'portrait.jpg');
  await orientedJpeg(rotated, 320, 240);
  await clip(folder, 'walk.mp4', 2, '160x120', 10);
  const r = await runCli(['label', folder, '--yes', '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  expect(lastJson(r.stdout)).toMatchObject({ labelled: 3 });
});
afterAll(() => t.remove());

describe('corrections through label --reanalyse and export', () => {
  it('keeps every edit when the files are analysed again, and exports what a person accepted', async () => {
    const ref = (b: { detectionId: number | null; correctionId: number | null }) => ({
      detectionId: b.detectionId,
      correctionId: b.correctionId,
    });
    const meta = await sharp(rotated).metadata();
    expect(meta.orientation).toBe(6);
    // A reviewer's work on the rotated photo: move and accept one box, reject another, draw one.
    const before = withStore((review, store) => {
      const media = store.media.byPath(rotated)!;
      const boxes = review.item(media.id, 'objects').boxes;
      expect(boxes.length).toBeGreaterThanOrEqual(2);
      const [first, second] = boxes as [(typeof boxes)[0], (typeof boxes)[0]];
      review.edit(media.id, 'objects', {
        kind: 'move',
        box: ref(first),
        bbox: { x: 0.25, y: 0.5, w: 0.5, h: 0.25 },
      });
      review.edit(media.id, 'objects', { kind: 'accept', box: ref(first) });
      review.edit(media.id, 'objects', { kind: 'reject', box: ref(second) });
      review.edit(media.id, 'objects', {
        kind: 'add',
        frameIndex: 0,
        timeMs: null,
        label: 'kite',
        bbox: { x: 0, y: 0, w: 0.5, h: 0.1 },
      });
      return review
        .item(media.id, 'objects')
        .boxes.map((b) => `${b.label}:${b.review}:${b.origin}`);
    });

    const again = await runCli(['label', folder, '--reanalyse', '--yes', '--json'], env);
    expect(again.code, again.stderr).toBe(0);
    const summary = lastJson<{ labelled: number; framesSpent: number }>(again.stdout);
    // Every file was sent again and paid for; nothing was reused.
    expect(summary.labelled).toBe(3);
    expect(summary.framesSpent).toBeGreaterThan(0);
    // Without --reanalyse nothing is sent.
    const plain = await runCli(['label', folder, '--yes', '--json'], env);
    expect(lastJson<{ labelled: number }>(plain.stdout).labelled).toBe(0);

    const after = withStore((review, store) => {
      const media = store.media.byPath(rotated)!;
      return review
        .item(media.id, 'objects')
        .boxes.map((b) => `${b.label}:${b.review}:${b.origin}`);
    });
    expect(after).toEqual(before);

    const out = join(t.dir, 'accepted.csv');
    const r = await runCli(['export', '--format', 'csv', '--out', out, '--only-accepted'], env);
    expect(r.code, r.stderr).toBe(0);
    const rows = (await readCsv(out)).filter((b) => b.path === rotated);
    // The displayed picture is 240 wide and 320 high (orientation 6 swaps the sides).
    expect(rows.map((b) => b.label).sort()).toEqual([before[0]!.split(':')[0]!, 'kite'].sort());
    const moved = rows.find((b) => b.label !== 'kite')!;
    expect(moved).toMatchObject({ width: meta.height, height: meta.width });
    expect([moved.xmin, moved.ymin, moved.xmax, moved.ymax]).toEqual([60, 160, 180, 240]);
    const kite = rows.find((b) => b.label === 'kite')!;
    expect([kite.xmin, kite.ymin, kite.xmax, kite.ymax]).toEqual([0, 0, 120, 32]);
  });

  it('MOT names each box’s class and links the clip’s boxes into tracks', async () => {
    const out = join(t.dir, 'mot');
    const r = await runCli(['export', '--format', 'mot', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    const boxes = await readMot(out);
    expect(boxes.length).toBeGreaterThan(0);
    const stored = withStore((_review, store) =>
      [...store.exportItems({ solution: 'objects', kind: 'video' })].flatMap((i) =>
        i.detections.map((d) => ({ label: d.label, track: (d as { trackId?: number }).trackId })),
      ),
    );
    const labels = new Set(stored.map((d) => d.label));
    for (const b of boxes) expect(labels.has(b.label)).toBe(true);
    // Tracked boxes carry their track; a box the tracker could not place is a track of its own
    // (issue 28: MOT ids are 1 or more, never -1).
    const perTrack = new Map<number, number>();
    for (const { track = -1 } of boxes) perTrack.set(track, (perTrack.get(track) ?? 0) + 1);
    expect([...perTrack.keys()].every((id) => id >= 1)).toBe(true);
    const tracked = new Set(stored.flatMap((d) => (d.track === undefined ? [] : [d.track])));
    const untracked = stored.filter((d) => d.track === undefined).length;
    expect(tracked.size).toBeGreaterThan(0);
    expect(perTrack.size).toBe(tracked.size + untracked);
  });
});
