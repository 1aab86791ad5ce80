/**
 * The model's boxes read ahead of the import's slices, which then take them instead of one query
 * per file (0.3 s of a 20k import's writing phase). Read in result id order, the order analysis
 * followed the scan and the import writes in: on a thread of its own with its own connection
 * (boxes-ahead-worker.ts) where it can, else on this one while the labels are parsed and
 * it would wait. Kept only while nobody else writes to the library: at the first change not the
 * import's own (another connection's commit, a person's edit on this one), everything read ahead
 * is dropped and each file reads its boxes as before. Each result's boxes are taken once: a
 * second file of a content reads what the first one's write left, and a page that comes after a
 * result was asked for keeps none of that result's boxes (the import may have written it since).
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { BoxesAheadReader } from '../core/store/store-ports.js';
import type { DetectionRow } from '../core/store/store-types.js';
import { sqliteNativeBinding } from '../node-lib/sqlite.js';
import { workerScript } from '../node-lib/worker-script.js';
import type { ModelBoxesReaderData, ModelBoxesReaderMessage } from './boxes-ahead-worker.js';
import {
  packedCount,
  packedResultId,
  packModelBoxes,
  unpackModelBoxes,
  wholeResults,
  type PackedModelBoxes,
} from './packed-model-boxes.js';

/** Rows read per turn of the loop (a few ms), or per page of the reading thread. */
const PAGE = 2000;
/**
 * The most rows held (packed, about 70 bytes each): a 100k-image library's million boxes. Read on
 * this thread only while the labels are parsed (it would wait), so a cap of 300k left that wait
 * idle at 100k; reading on cut the import by 0.5-1.5 s (15.95 s against 16.5 s, medians of 3,
 * 2026-11-29) for 70 MB more peak RSS.
 */
const MAX_ROWS = 1_000_000;

export class ModelBoxesAhead {
  private readonly where = new Map<
    number,
    { page: PackedModelBoxes; from: number; count: number }
  >();
  /** Results whose boxes were asked for: a page read later keeps none of theirs. */
  private readonly taken = new Set<number>();
  private mark: string;
  private rows = 0;
  private dropped = false;
  private reader: Worker | undefined;
  private readerGone: Promise<void> = Promise.resolve();

  constructor(private readonly store: BoxesAheadReader) {
    this.mark = store.changeMark();
  }

  /**
   * Has a thread of its own read them (while this one indexes the library and plans), where the
   * library is a file and the thread's script is built; false: call `fill` instead.
   */
  readOnThread(): boolean {
    const { file } = this.store;
    if (file === '' || file === ':memory:') return false;
    const script = workerScript(import.meta.url, 'boxes-ahead-worker.js');
    if (!existsSync(script)) return false;
    const data: ModelBoxesReaderData = {
      file,
      nativeBinding: sqliteNativeBinding(),
      page: PAGE,
      maxRows: MAX_ROWS,
    };
    const reader = new Worker(script, { workerData: data });
    this.reader = reader;
    reader.on('message', (m: ModelBoxesReaderMessage) => {
      if (m.kind === 'page') this.keep(m.page);
    });
    // A reader that fails leaves the boxes it did not send to be read per file.
    reader.on('error', () => undefined);
    this.readerGone = new Promise((resolve) =>
      reader.once('exit', () => {
        if (this.reader === reader) this.reader = undefined;
        resolve();
      }),
    );
    return true;
  }

  /** Once the reading thread has sent all it will and is gone (at once without one). */
  settled(): Promise<void> {
    return this.readerGone;
  }

  /** Reads a page per turn until `stop()` answers true, everything is read, or MAX_ROWS. */
  async fill(stop: () => boolean): Promise<void> {
    let after = 0;
    while (!stop() && !this.dropped && this.rows < MAX_ROWS) {
      if (this.store.changeMark() !== this.mark) {
        this.drop();
        return;
      }
      const page = this.store.results.detectionsAfter(after, PAGE);
      const whole = wholeResults(page, PAGE);
      // A result of more than a page (a long clip): reading ahead stops there.
      if (whole <= 0) return;
      this.keep(packModelBoxes(page, whole));
      if (page.length < PAGE) return;
      after = page[whole - 1]?.[1] ?? after;
      await new Promise((r) => setImmediate(r));
    }
  }

  /**
   * Call first in each transaction of the import that reads them, and around its other writes:
   * drops everything if the library changed since the import's own last write.
   */
  check(): void {
    if (!this.dropped && this.store.changeMark() !== this.mark) this.drop();
  }

  /**
   * Whether nobody else has written to the library since the import began, as of the last
   * `check`: what the import read before its writes still holds, but for its own writes.
   */
  unchangedByOthers(): boolean {
    return !this.dropped;
  }

  /** Call last in each transaction of the import that writes: its own writes are no change. */
  remark(): void {
    if (!this.dropped) this.mark = this.store.changeMark();
  }

  /** The result's boxes as read ahead, once; undefined when not read (or dropped). */
  take(resultId: number): DetectionRow[] | undefined {
    this.taken.add(resultId);
    const at = this.where.get(resultId);
    if (!at) return undefined;
    this.where.delete(resultId);
    return unpackModelBoxes(at.page, at.from, at.count);
  }

  /** Has the reading thread, if any, read no further: what it sent is kept. */
  stopReading(): void {
    this.reader?.postMessage('stop');
  }

  /** Stops the reading thread, if any (the import is over). */
  close(): void {
    void this.reader?.terminate();
    this.reader = undefined;
  }

  private keep(page: PackedModelBoxes): void {
    if (this.dropped) return;
    const count = packedCount(page);
    for (let i = 0; i < count; i++) {
      const resultId = packedResultId(page, i);
      // Asked for before its page came (then read per file, and maybe written since): not kept.
      if (this.taken.has(resultId)) continue;
      const held = this.where.get(resultId);
      if (held) held.count++;
      else this.where.set(resultId, { page, from: i, count: 1 });
    }
    this.rows += count;
  }

  private drop(): void {
    this.dropped = true;
    this.where.clear();
    this.close();
  }
}
