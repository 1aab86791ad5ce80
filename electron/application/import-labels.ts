/**
 * `labels.import` and `labeldesk import`: reads a label source, finds each labelled file in the
 * library, and makes its labels the file's corrected set as a person's accepted work (see
 * core/import/plan-import.ts), marking the file reviewed by the import. Each file is planned and
 * written in turn inside a batch transaction, so a file the batch already wrote (a duplicate of
 * the same content) is planned against what was written. Problems are per file; the rest goes on.
 */
import { isMainThread } from 'node:worker_threads';
import type { CocoKeptImage } from '../core/import/coco-kept.js';
import type { ImportedFile, ImportFormat, ImportIssue } from '../core/import/import-model.js';
import { planImport, type FileState } from '../core/import/plan-import.js';
import { readHeldLabelsInWorker } from '../core/import/read-labels-in-worker.js';
import { ArrivingMatches, type FileIssues, type Matched } from './import-matching.js';
import { ModelBoxesAhead } from './model-boxes-ahead.js';
import {
  letLoopGo,
  libraryIndex,
  type IndexedResult,
  type LibraryRead,
} from './import-library-read.js';
import { issue } from '../core/import/import-model.js';
import { withBoxes } from '../core/import/held-file.js';
import type { LibraryStore, MediaRecord, ReviewedMark } from '../core/store/store-types.js';

export { IMPORT_FORMATS, type ImportFormat } from '../core/import/import-model.js';

/**
 * Label batches in flight: on the import's own thread (the app's), a few, so the reading thread
 * never waits for a batch to be asked for; on a thread serving a UI, one per turn of its loop.
 */
const BATCHES_IN_FLIGHT = isMainThread ? 1 : 3;

export interface ImportOptions {
  format: ImportFormat;
  /** A file or folder, absolute or relative to the working folder. */
  source: string;
  solution: string;
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number }) => void;
  /**
   * Told the summary once the last slice is committed (every change then visible to every
   * connection); the log's last copy into the database (checkpoint-aside.ts) follows before the
   * returned promise settles: at 100k, 0.3-0.5 s nobody needs to wait for.
   */
  onCommitted?: (summary: ImportSummary) => void;
}

export interface ImportSummary {
  /** Files whose labels were written. */
  files: number;
  /** Files whose labels were already exactly these (an earlier import). */
  unchanged: number;
  /** Boxes the imported and unchanged files now show. */
  boxes: number;
  issues: ImportIssue[];
}

/**
 * Files taken off the matched list at a time, so that a written batch's labels can be collected.
 * They are written in the library's order (see matchAll), not sorted by content hash: the app's
 * hashes are random (SHA-256), so that order spread each slice's mirror, marks and priorities over
 * the whole batch's pages, and it visited the corrections' index no more in order (its pages
 * outnumber a batch's files). At 100k with such hashes: 14.6 s against 16.1 s, no change with
 * ordered ones.
 */
const BATCH = 2000;
/**
 * The most a transaction works before it commits and lets the loop go (progress, cancelling). The
 * import runs on a thread of its own (import-labels-in-worker.ts), so a slice holds no UI; what it
 * holds is the library's write lock: a write of another thread that arrives ends the slice after
 * the current file (write turns), but waits for the slice's tail (mirror, marks, commit), which
 * grows with its rows. Slices of 100 ms or 4,000 rows against 30 ms or 1,000 at 100k,
 * alternated: 13.5-17.9 s (median 14.7) against 16.3-18.5 s (median 16.8): fewer commits of the
 * same index pages. A person's edit then waited 20 ms or less (20k and 100k).
 */
export const SLICE_MS = 100;
/**
 * The most rows (each file, and each of its boxes) a slice plans and writes, whatever the clock
 * says. After its files, a slice writes the library view's mirror, the kept COCO ids and the
 * reviewed marks, and commits, each in one piece that grows with the rows: bounded by time alone,
 * a slow turn of the clock (a loaded machine, a collection) let a slice take a whole batch. At
 * about 25 µs a row planned, 4,000 rows are a slice of 100 ms.
 */
export const SLICE_ROWS = 4000;
/** Of a slice's time, what its files may take at least, however long the last slice's tail took. */
const MIN_FILES_MS = 30;
/**
 * Rows of the first slice, doubled after each slice within its time up to SLICE_ROWS and halved
 * (down to MIN_SLICE_ROWS) after one well over it: the first slices run cold (code not yet
 * optimised, pages not yet cached); a slow machine keeps smaller slices.
 */
const FIRST_SLICE_ROWS = 200;
const MIN_SLICE_ROWS = 100;

/** The next slice's most rows, from how long the last one took. */
export function nextSliceRows(rows: number, tookMs: number): number {
  if (tookMs <= SLICE_MS) return Math.min(SLICE_ROWS, rows * 2);
  if (tookMs > SLICE_MS * 1.5) return Math.max(MIN_SLICE_ROWS, Math.floor(rows / 2));
  return rows;
}

/** What the import read before its writes began. */
type ReadBefore = Omit<LibraryRead, 'index'> & { ahead: ModelBoxesAhead };

export async function importLabels(
  store: LibraryStore,
  options: ImportOptions,
): Promise<ImportSummary> {
  // The model's boxes read ahead once the library is indexed, if the labels are not in yet (see
  // ModelBoxesAhead). Made first: what it holds is what anyone else's write since then voids.
  const ahead = new ModelBoxesAhead(store);
  try {
    return await importWithAhead(store, options, ahead);
  } finally {
    ahead.close();
  }
}

async function importWithAhead(
  store: LibraryStore,
  options: ImportOptions,
  ahead: ModelBoxesAhead,
): Promise<ImportSummary> {
  const { solution } = options;
  // Parsed on a thread of its own: a large or hostile file never holds the thread serving the UI.
  // The library is indexed here meanwhile.
  let labelsIn = false;
  const matches = new ArrivingMatches();
  const [read, { index, ...library }] = await Promise.all([
    readHeldLabelsInWorker(options.format, options.source, options.signal, {
      inFlight: BATCHES_IN_FLIGHT,
      onFiles: (files) => matches.arrived(files),
    }).finally(() => {
      labelsIn = true;
    }),
    libraryIndex(store, solution, options.signal).then(async (library) => {
      await matches.indexed(library.index, options.signal);
      // Labels parsed by then are few: their files read their boxes themselves. Else a thread of
      // its own reads them, on into the writes; started at once, it slowed a small import's index
      // (1,000 files into 100k: 1.5 -> 1.8 s, twice the CPU).
      if (labelsIn || ahead.readOnThread()) return library;
      await ahead.fill(() => labelsIn || options.signal?.aborted === true);
      return library;
    }),
  ]);
  const summary: ImportSummary = { files: 0, unchanged: 0, boxes: 0, issues: [...read.issues] };
  const total = read.files.length;
  const issues: FileIssues = [];
  const work = await matches.all(index, issues, options.signal);
  read.files = [];
  // Labels for a small part of the library: its files read their boxes themselves, rather than
  // the thread ahead reading (and holding) every model box of the library.
  if (work.length * 2 < library.results.size) ahead.stopReading();
  // Each step before the first slice in a turn of its own: the matching's last page and sort, the
  // dataset's commit (the first write, 15-90 ms loaded) and the checkpoint thread's start, done
  // in one turn with the first slice, held the loop 120 ms (20k images, loaded machine).
  await letLoopGo(options.signal);
  // COCO's ids and the fields LabelDesk does not edit, for a COCO export to give back.
  if (read.coco) {
    const { coco } = read;
    store.transaction(() => {
      ahead.check();
      store.coco.setDataset(solution, coco);
      ahead.remark();
    });
    await letLoopGo(options.signal);
  }
  let done = total - work.length;
  // How long the last slice's mirror, marks and commit took (see SLICE_ROWS).
  let tailMs = 0;
  let maxRows = FIRST_SLICE_ROWS;
  // Checkpoints aside: a checkpoint on a commit held this thread (the UI's) 0.4 s at a time.
  await store.bulkWrites(
    async () => {
      await letLoopGo(options.signal);
      while (work.length > 0) {
        options.signal?.throwIfAborted();
        // Taken off the list: a written batch's labels can be collected (a 100k-file COCO holds
        // a million boxes; the collector then walks ever less of them).
        const batch = work.splice(0, BATCH);
        for (let from = 0; from < batch.length;) {
          options.signal?.throwIfAborted();
          // The slice's budget holds its tail too: the files get what the last tail left.
          const start = performance.now();
          const until = start + Math.max(MIN_FILES_MS, SLICE_MS - tailMs);
          let filesEnd = start;
          const to = store.transaction(() =>
            importSlice(
              store,
              { ...library, ahead },
              batch,
              from,
              { until, maxRows },
              solution,
              summary,
              issues,
              () => {
                filesEnd = performance.now();
              },
            ),
          );
          const end = performance.now();
          tailMs = end - filesEnd;
          maxRows = nextSliceRows(maxRows, end - start);
          done += to - from;
          from = to;
          options.onProgress?.({ done, total });
          // Lets progress events and other calls through between slices.
          await letLoopGo(undefined);
        }
      }
      // A loop, not a spread: 100k issues would overflow the call's arguments.
      for (const i of issues.sort((a, b) => a.at - b.at)) summary.issues.push(i.issue);
      options.onCommitted?.(summary);
    },
    { checkpointAside: true },
  );
  return summary;
}

/**
 * A slice of a batch in one transaction: its files from `from` on, until `until` (a
 * performance.now() time) has passed or `maxRows` would be passed, at least one; then `filesDone`
 * is told, and the slice's mirror and marks are written. Returns where the next slice starts. Each
 * file's corrections are written as soon as it is planned, so a second file of the same content is
 * planned against what the first wrote.
 */
function importSlice(
  store: LibraryStore,
  read: ReadBefore,
  batch: readonly Matched[],
  from: number,
  { until, maxRows }: { until: number; maxRows: number },
  solution: string,
  summary: ImportSummary,
  issues: FileIssues,
  filesDone: () => void,
): number {
  read.ahead.check();
  const reviewed: number[] = [];
  const cocoImages: { mediaId: number; image: CocoKeptImage }[] = [];
  const writer = store.corrections.bulkWriter();
  let next = from;
  let rows = 0;
  while (next < batch.length) {
    const { at, file: held, media } = batch[next] as Matched;
    const fileRows = 1 + held.boxCount;
    // Another thread's write waiting for this transaction (write-turns.ts) ends it early too.
    const full = rows + fileRows > maxRows || performance.now() >= until;
    if (next > from && (full || store.writersWaiting())) break;
    rows += fileRows;
    next++;
    const file = withBoxes(held);
    const state = stateOf(store, read, media, file, solution);
    if ('code' in state) {
      issues.push({ at, issue: state });
      continue;
    }
    const plan = planImport(file, state, solution);
    if ('code' in plan) {
      issues.push({ at, issue: plan });
      continue;
    }
    if (plan.kind === 'write') {
      const { result, model, corrections, contentId } = state;
      // Contents that had no correction before: the mirror is computed from the boxes just read.
      const unscored = read.unscored && read.ahead.unchangedByOthers();
      const known =
        corrections.length === 0 ? { resultId: result.id, model, unscored, contentId } : undefined;
      writer.write(plan.corrections, known);
      read.corrected.add(result.contentHash);
      summary.files++;
      reviewed.push(media.id);
    } else {
      summary.unchanged++;
      // A person's own "reviewed" stays theirs when the import changes nothing.
      const { mark } = state;
      const by = (mark === null ? store.reviewed.of(media.id, solution) : mark)?.reviewedBy;
      if (by !== 'person') reviewed.push(media.id);
    }
    summary.boxes += plan.boxes;
    if (file.coco) cocoImages.push({ mediaId: media.id, image: file.coco });
  }
  filesDone();
  writer.finish();
  if (cocoImages.length) store.coco.setImages(cocoImages);
  store.reviewed.markReviewed(reviewed, solution, 'import');
  read.ahead.remark();
  return next;
}

/** What the plan reads of a file, or why it cannot be planned. */
function stateOf(
  store: LibraryStore,
  { results, ahead, corrected }: ReadBefore,
  media: MediaRecord,
  file: ImportedFile,
  solution: string,
):
  | (FileState & { mark: ReviewedMark | undefined | null; contentId: number | undefined })
  | ImportIssue {
  // Read before the writes began (only its id and content are used, which a re-analysis keeps);
  // a file analysed since has its result looked up.
  const result: IndexedResult | undefined = media.contentHash
    ? (results.get(media.contentHash) ?? store.results.find(media.contentHash, solution))
    : undefined;
  if (!media.contentHash || !result) {
    const what = `${media.path} has not been analysed by ${solution} yet; label it first, then import (its labels were not imported).`;
    return issue(file.source, 'not_analysed', what, media.path);
  }
  const corrections =
    ahead.unchangedByOthers() && !corrected.has(media.contentHash)
      ? []
      : store.corrections.forContent(media.contentHash, solution);
  // Only a file with corrections needs to know whether an import wrote them (null: not read).
  const mark = corrections.length ? store.reviewed.of(media.id, solution) : null;
  const importedBefore =
    mark?.reviewedBy === 'import' && corrections.every((c) => c.updatedAt <= mark.reviewedAt);
  const model = ahead.take(result.id) ?? store.results.detections(result.id);
  return { media, result, model, corrections, importedBefore, mark, contentId: result.contentId };
}
