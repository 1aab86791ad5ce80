/**
 * Issue 27 §1's 5,000-box review in a large library: an image holding 5,000 boxes added to the
 * storage section's library (100k images × 60 boxes by default), opened for review as the app
 * does (the `review.boxes` handler: the model's boxes with a person's corrections merged) and one
 * box nudged (`review.edit`), each p50 and p95, beside the bare reads and writes of the same rows.
 */
import { reviewHandlers } from '../electron/application/review-handlers.js';
import type { RunController } from '../electron/application/run-controller.js';
import { ClipTracks } from '../electron/application/tracking/clip-tracks.js';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import { contentIdOf } from '../electron/core/store/content-numbers.js';
import { openDatabase } from '../electron/node-lib/sqlite.js';
import type { Figure } from './report.js';
import { addImage, bareWrites, cpuMs, type Edit, ms, nudges } from './review-edit-bench.js';
import { PICTURE, SOLUTION } from './review-library.js';

const BOXES = 5000;
const READS = 40;
const FIRST_OPENS = 10;
const WARMUP = 3;

/**
 * Each call's CPU time (ms) after a few unmeasured ones (the handlers answer through a promise);
 * `between` runs unmeasured before each, e.g. opening another file so this one is read afresh.
 */
async function timesOf(
  runs: number,
  run: () => unknown,
  between: () => unknown = () => undefined,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs + WARMUP; i++) {
    await between();
    const t = cpuMs();
    await run();
    if (i >= WARMUP) times.push(cpuMs() - t);
  }
  return times;
}

/** The item's rows with plain SQLite: its media row, result and every box, as arrays. */
async function bareReads(file: string, id: number): Promise<number[]> {
  const db = openDatabase(file);
  try {
    const media = db.prepare('SELECT * FROM media WHERE id = ?').raw();
    const result = db.prepare('SELECT * FROM results WHERE content_hash = ? AND solution = ?');
    const boxes = db.prepare('SELECT * FROM detections WHERE result_id = ?').raw();
    const corrections = db
      .prepare(`SELECT * FROM corrections WHERE content_id = ${contentIdOf('?')}`)
      .raw();
    return await timesOf(READS, () => {
      const m = media.get(id) as unknown[];
      const r = result.get(m[6], SOLUTION) as { id: number };
      if (boxes.all(r.id).length !== BOXES) throw new Error('bare read: not every box');
      corrections.all(m[6]);
    });
  } finally {
    db.close();
  }
}

export async function reviewAtScaleFigures(file: string): Promise<Figure[]> {
  const store = openLibraryStore(file);
  const tracks = new ClipTracks(store);
  try {
    // Images of 5,000 to 5,009 boxes: each opened once is a first open, nothing of it held yet.
    const ids = Array.from({ length: FIRST_OPENS }, (_, k) => addImage(store, BOXES + k));
    const id = ids[0] as number;
    const handlers = reviewHandlers(store, {} as RunController, () => undefined, tracks);
    const open = (item: number) =>
      handlers['review.boxes']({ id: item, solution: SOLUTION, includeDeleted: false });
    const firsts: number[] = [];
    for (const [k, item] of ids.entries()) {
      const t = cpuMs();
      const answer = (await open(item)) as { boxes: unknown[] };
      firsts.push(cpuMs() - t);
      if (answer.boxes.length !== BOXES + k) throw new Error('review.boxes: not every box');
    }
    const read = () => open(id);
    // The review keeps the last file's model boxes: another file opened in between, as a person
    // going from file to file, makes each open read this one's rows again.
    const other = () => open(1);
    const reads = await timesOf(READS, read, other);
    const bareRead = await bareReads(file, id);
    const edit: Edit = (q) => handlers['review.edit'](q);
    const edits = await nudges(store, edit, id, 0, PICTURE.width, cpuMs);
    const readsEdited = await timesOf(READS, read, other);
    const bareEdits = bareWrites(file, store.media.byId(id)?.contentHash ?? '', cpuMs);
    return [
      {
        name: `first open of an image with ${BOXES.toLocaleString('en')} boxes in this library for review (review.boxes), CPU p50 over ${FIRST_OPENS} images`,
        value: ms(firsts),
      },
      {
        name: `opening it again, another file opened before each, CPU p50 over ${READS}`,
        value: `${ms(reads)}; once a box is corrected: ${ms(readsEdited)}; bare read of its rows: ${ms(bareRead)}`,
      },
      {
        name: `an arrow-key nudge of one of its boxes (review.edit, call to saved answer), CPU`,
        value: `${ms(edits)}; bare SQLite update of the correction row: ${ms(bareEdits)}`,
      },
    ];
  } finally {
    await tracks.close();
    store.close();
  }
}
