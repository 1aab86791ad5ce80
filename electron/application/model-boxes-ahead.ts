/**
 * The model's boxes read ahead, while the labels are parsed on their thread and this thread
 * would wait: the import's slices then take them instead of one query per file (0.3 s of a 20k
 * import's writing phase). Read in result id order, the order analysis followed the scan and the
 * import writes in. Kept only while nobody else writes to the library: at the first change not
 * the import's own (another connection's commit, a person's edit on this one), everything read
 * ahead is dropped and each file reads its boxes as before. Each result's boxes are taken once:
 * a second file of a content reads what the first one's write left.
 */
import type { BoxesAheadReader } from '../core/store/store-ports.js';
import type { DetectionRow } from '../core/store/store-types.js';
import { StringTable } from '../shared/string-table.js';

/** Rows read per turn of the loop (a few ms). */
const PAGE = 2000;
/**
 * The most rows held (packed, about 70 bytes each): a 100k-image library's million boxes. Only read
 * while the labels are parsed (the thread would wait), so a cap of 300k left that wait idle at
 * 100k; reading on cut the import by 0.5-1.5 s (15.95 s against 16.5 s, medians of 3, 2026-11-29)
 * for 70 MB more peak RSS.
 */
const MAX_ROWS = 1_000_000;
/** Numbers per box: id, resultId, frameIndex, timeMs, classId, score, x, y, w, h. */
const N = 10;

/**
 * A page of boxes packed, so that what is held is a few typed arrays rather than objects the
 * collector copies and walks (as objects, 200k held boxes added 130 MB to the peak RSS).
 */
interface Packed {
  numbers: Float64Array;
  /** Per box: label, origin, review, as indexes into the strings. */
  texts: Uint32Array;
  /** Per box, the nulls: 1 timeMs, 2 classId, 4 score. */
  nulls: Uint8Array;
}

export class ModelBoxesAhead {
  private readonly where = new Map<number, { page: Packed; from: number; count: number }>();
  private readonly table = new StringTable();
  private mark: string;
  private rows = 0;
  private dropped = false;

  constructor(private readonly store: BoxesAheadReader) {
    this.mark = store.changeMark();
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
      // The last result may be cut short by the page: read again with the next one.
      const whole = page.length < PAGE ? page.length : page.findIndex(startsLast(page));
      // A result of more than a page (a long clip): reading ahead stops there.
      if (whole <= 0) return;
      this.keep(page, whole);
      if (page.length < PAGE) return;
      after = (page[whole - 1] as DetectionRow).resultId;
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
    const at = this.where.get(resultId);
    if (!at) return undefined;
    this.where.delete(resultId);
    const { numbers, texts, nulls } = at.page;
    const boxes: DetectionRow[] = [];
    for (let i = at.from; i < at.from + at.count; i++) {
      const n = i * N;
      const null_ = nulls[i] ?? 0;
      boxes.push({
        id: numbers[n] ?? 0,
        resultId: numbers[n + 1] ?? 0,
        frameIndex: numbers[n + 2] ?? 0,
        timeMs: null_ & 1 ? null : (numbers[n + 3] ?? 0),
        label: this.table.strings[texts[i * 3] ?? 0] ?? '',
        classId: null_ & 2 ? null : (numbers[n + 4] ?? 0),
        score: null_ & 4 ? null : (numbers[n + 5] ?? 0),
        bbox: {
          x: numbers[n + 6] ?? 0,
          y: numbers[n + 7] ?? 0,
          w: numbers[n + 8] ?? 0,
          h: numbers[n + 9] ?? 0,
        },
        origin: this.table.strings[texts[i * 3 + 1] ?? 0] as DetectionRow['origin'],
        review: this.table.strings[texts[i * 3 + 2] ?? 0] as DetectionRow['review'],
      });
    }
    return boxes;
  }

  private keep(page: readonly DetectionRow[], count: number): void {
    const packed: Packed = {
      numbers: new Float64Array(count * N),
      texts: new Uint32Array(count * 3),
      nulls: new Uint8Array(count),
    };
    const { numbers, texts, nulls } = packed;
    for (let i = 0; i < count; i++) {
      const d = page[i] as DetectionRow;
      const n = i * N;
      numbers[n] = d.id;
      numbers[n + 1] = d.resultId;
      numbers[n + 2] = d.frameIndex;
      numbers[n + 3] = d.timeMs ?? 0;
      numbers[n + 4] = d.classId ?? 0;
      numbers[n + 5] = d.score ?? 0;
      numbers[n + 6] = d.bbox.x;
      numbers[n + 7] = d.bbox.y;
      numbers[n + 8] = d.bbox.w;
      numbers[n + 9] = d.bbox.h;
      nulls[i] =
        (d.timeMs === null ? 1 : 0) | (d.classId === null ? 2 : 0) | (d.score === null ? 4 : 0);
      texts[i * 3] = this.table.indexOf(d.label);
      texts[i * 3 + 1] = this.table.indexOf(d.origin);
      texts[i * 3 + 2] = this.table.indexOf(d.review);
      const held = this.where.get(d.resultId);
      if (held) held.count++;
      else this.where.set(d.resultId, { page: packed, from: i, count: 1 });
    }
    this.rows += count;
  }

  private drop(): void {
    this.dropped = true;
    this.where.clear();
  }
}

/** Finds where the page's last result begins. */
const startsLast = (page: readonly DetectionRow[]) => {
  const last = (page[page.length - 1] as DetectionRow).resultId;
  return (d: DetectionRow) => d.resultId === last;
};
