/**
 * One edit from the review call that saves it to its saved answer, in a real SQLite library, with
 * the app's review handler and the tracker's thread (as `labeldesk app` serves `review.edit`):
 * - an arrow-key nudge (a move by one pixel, what the key sends) of a box on a frame of a 2-hour
 *   clip holding 50,000 boxes, nudged again and again as a person holds the key;
 * - the same nudge of a box on an image holding 1,000 boxes.
 * Bare: the same correction row written with plain SQLite in its own transaction (what the edit
 * must at least do). The renderer's part of a key press is the same before and after and is left
 * out: this is the app's share of key to saved answer. With `LABELDESK_BENCH_BEFORE=<dir>` the same
 * nudges run on a build of another revision too (the revision before issue 22: the figure it must
 * beat 2×), in turns with this one's, and the figures say how many times faster this one is.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunController } from '../electron/application/run-controller.js';
import type { ClipTracks } from '../electron/application/tracking/clip-tracks.js';
import type { LibraryStore } from '../electron/core/store/store-types.js';
import { contentIdOf } from '../electron/core/store/content-numbers.js';
import { openDatabase } from '../electron/node-lib/sqlite.js';
import type { ReviewEdit } from '../electron/shared/contract/review-schemas.js';
import { LONG_CLIP } from './interpolated-export/long-clip-store.js';
import { fmt, printFigures } from './report.js';
import { makeBoxes, PICTURE, SOLUTION } from './review-library.js';
import { revisionIn, thisRevision, type Revision } from './review-edit-revision.js';

const NUDGES = 30;
const WARMUP = 3;

export const pct = (xs: readonly number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
/** Wall time (ms) by default; the storage section passes CPU time (`cpuMs`), the machine being shared. */
export type Clock = () => number;
export const cpuMs: Clock = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
export const ms = (xs: readonly number[]) =>
  `${fmt(pct(xs, 0.5), 2)} ms (p95 ${fmt(pct(xs, 0.95), 2)})`;

/** An image of `boxes` boxes written through the store API (no picture file: no call reads it). */
export function addImage(store: LibraryStore, boxes = 1000, withPixels = false): number {
  const folder = store.folders.add('/bench-images');
  const contentHash = `edit-bench-${boxes}`;
  const [id] = store.media.upsertMany([
    {
      folderId: folder.id,
      path: `/bench-images/a-${boxes}.jpg`,
      kind: 'image',
      size: 1,
      mtimeMs: 0,
      contentHash,
      width: PICTURE.width,
      height: PICTURE.height,
      orientation: 1,
      durationMs: null,
      fps: null,
    },
  ]);
  store.results.save({
    contentHash,
    solution: SOLUTION,
    serviceUrl: 'local',
    analysedWidth: PICTURE.width,
    analysedHeight: PICTURE.height,
    model: 'bench',
    detections: makeBoxes(boxes, 22).map((b, i) => ({
      frameIndex: 0,
      timeMs: null,
      label: b.label,
      classId: i % 10,
      score: b.score,
      bbox: { x: b.x, y: b.y, w: b.w, h: b.h },
      ...(withPixels && {
        bboxPx: {
          x: b.x * PICTURE.width,
          y: b.y * PICTURE.height,
          w: b.w * PICTURE.width,
          h: b.h * PICTURE.height,
        },
      }),
    })),
  });
  return id ?? -1;
}

export type Edit = (q: { id: number; solution: string; edit: ReviewEdit }) => unknown;

/** Nudges one box of `frameIndex` one pixel right, NUDGES times; each call's time. */
export async function nudges(
  store: LibraryStore,
  edit: Edit,
  id: number,
  frameIndex: number,
  width: number,
  clock: Clock = () => performance.now(),
): Promise<number[]> {
  const media = store.media.byId(id);
  const result = store.results.find(media?.contentHash ?? '', SOLUTION);
  const box = store.results.detections(result?.id ?? -1).find((d) => d.frameIndex === frameIndex);
  if (!box) throw new Error(`no box on frame ${frameIndex}`);
  const times: number[] = [];
  let bbox = box.bbox;
  let correctionId: number | null = null;
  for (let i = 0; i < NUDGES + WARMUP; i++) {
    bbox = { ...bbox, x: bbox.x + 1 / width };
    const t = clock();
    const answer = (await edit({
      id,
      solution: SOLUTION,
      edit: { kind: 'move', box: { detectionId: box.id, correctionId }, bbox },
    })) as { box: { correctionId: number | null; bbox: { x: number } } | null };
    const took = clock() - t;
    if (!answer.box || Math.abs(answer.box.bbox.x - bbox.x) > 1e-9)
      throw new Error('the nudge was not saved');
    correctionId = answer.box.correctionId;
    if (i >= WARMUP) times.push(took);
  }
  return times;
}

/** The same rows with plain SQLite: one correction row updated in its own transaction. */
export function bareWrites(
  file: string,
  contentHash: string,
  clock: Clock = () => performance.now(),
): number[] {
  const db = openDatabase(file);
  try {
    const id = (
      db
        .prepare<[string], { id: number }>(
          `SELECT id FROM corrections WHERE content_id = ${contentIdOf('?')} LIMIT 1`,
        )
        .get(contentHash) as { id: number }
    ).id;
    const update = db.prepare<[number, number, number]>(
      'UPDATE corrections SET x = x + ?, updated_at = ? WHERE id = ?',
    );
    const tx = db.transaction((dx: number) => update.run(dx, Date.now(), id));
    const times: number[] = [];
    for (let i = 0; i < NUDGES + WARMUP; i++) {
      const t = clock();
      tx(1 / 1920);
      if (i >= WARMUP) times.push(clock() - t);
    }
    return times;
  } finally {
    db.close();
  }
}

/** One revision's library (the long clip and the image), its review handlers and tracker thread. */
interface Scenario {
  revision: Revision;
  home: string;
  file: string;
  store: LibraryStore;
  tracks: ClipTracks;
  clip: number;
  image: number;
  edit: Edit;
}

async function openScenario(revision: Revision): Promise<Scenario> {
  const home = await mkdtemp(join(tmpdir(), `labeldesk-bench-edit-${revision.name}-`));
  const clip = revision.buildLongClipStore(home);
  const file = join(home, 'library.sqlite');
  const store = revision.openLibraryStore(file);
  const tracks = new revision.ClipTracks(store);
  const image = addImage(store, 1000, revision.withPixels);
  const handlers = revision.reviewHandlers(store, {} as RunController, () => undefined, tracks);
  await tracks.ready(clip, SOLUTION);
  return {
    revision,
    home,
    file,
    store,
    tracks,
    clip,
    image,
    edit: (q) => handlers['review.edit'](q),
  };
}

async function closeScenario(s: Scenario): Promise<void> {
  await s.tracks.close();
  s.store.close();
  await rm(s.home, { recursive: true, force: true });
}

/** Figures of the sides, in the order given: each measured in turn, twice, so both share the load. */
async function measure(sides: readonly Scenario[]) {
  const clip = sides.map((): number[] => []);
  const image = sides.map((): number[] => []);
  // A frame an hour in (any frame: every one was read and merged by an edit before issue 22).
  const frame = LONG_CLIP.samples / 2;
  for (let round = 0; round < 2; round++) {
    for (const [i, s] of sides.entries())
      clip[i]?.push(...(await nudges(s.store, s.edit, s.clip, frame, LONG_CLIP.width)));
    for (const [i, s] of sides.entries())
      image[i]?.push(...(await nudges(s.store, s.edit, s.image, 0, PICTURE.width)));
  }
  return { clip, image };
}

/** `after; before (ratio)` when a before revision ran, else `after`. */
function beside(after: readonly number[], before: readonly number[] | undefined): string {
  if (!before) return ms(after);
  const ratio = pct(before, 0.5) / pct(after, 0.5);
  return `${ms(after)}; before: ${ms(before)}, ${fmt(ratio, 2)}× faster`;
}

/**
 * The scenario on this build, and beside it on the build in `LABELDESK_BENCH_BEFORE` when set
 * (bench/review-edit-revision.ts), in the same run.
 */
export async function benchReviewEdit(): Promise<void> {
  const beforeDir = process.env.LABELDESK_BENCH_BEFORE;
  const revisions = [thisRevision, ...(beforeDir ? [await revisionIn(beforeDir)] : [])];
  const sides: Scenario[] = [];
  try {
    for (const r of revisions) sides.push(await openScenario(r));
    const [after, before] = sides as [Scenario, Scenario | undefined];
    const { clip, image } = await measure(sides);
    const contentOf = (id: number) => after.store.media.byId(id)?.contentHash ?? '';
    const bareClip = bareWrites(after.file, contentOf(after.clip));
    const bareImage = bareWrites(after.file, contentOf(after.image));
    const n = (clip[0] ?? []).length;
    printFigures('Review edits (in process: the review.edit handler over a real library)', [
      {
        name: `arrow-key nudge of a box on a frame of a clip with ${LONG_CLIP.boxes.toLocaleString('en')} boxes, call to saved answer, p50 over ${n}`,
        value: `${beside(clip[0] ?? [], before && clip[1])}; bare SQLite update of the correction row: ${ms(bareClip)}`,
      },
      {
        name: `the same nudge on an image with 1,000 boxes, p50 over ${n}`,
        value: `${beside(image[0] ?? [], before && image[1])}; bare: ${ms(bareImage)}`,
      },
    ]);
  } finally {
    for (const s of sides) await closeScenario(s);
  }
}
