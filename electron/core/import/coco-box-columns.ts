/**
 * A COCO file's boxes as they are read, kept in columns rather than as an object each: at 100k
 * images a million box objects and their million kept-field strings all lived until the last
 * annotation was read, and the collector copied them between generations (1.5 s of the reading
 * thread's 5 s, which the import waits for). Packed for sending (packed-boxes.ts) file by file.
 */
import { StringTable } from '../../shared/string-table.js';
import { grown } from './grown-array.js';
import {
  KEPT_PART_CHARS,
  KeptTexts,
  PACKED_FLAGS,
  PACKED_NUMBERS,
  type PackedBoxes,
} from './packed-boxes.js';

/** The boxes grouped by file: file f's boxes are `order[first[f]]` to `order[first[f + 1]]`. */
interface Grouped {
  first: Uint32Array;
  order: Uint32Array;
}

export class CocoBoxColumns {
  private count = 0;
  private fileOf = new Uint32Array(1024);
  private corners = new Float64Array(4096);
  private labelOf = new Uint32Array(1024);
  private crowd = new Uint8Array(1024);
  /** Kept fields: the texts of a few thousand boxes joined into one string, `cocoEnd` within it. */
  private cocoChunkOf = new Uint32Array(1024);
  private cocoEnd = new Uint32Array(1024);
  private readonly cocoChunks: string[] = [];
  private pending: string[] = [];
  private pendingLength = 0;
  private readonly labels = new StringTable();
  private grouped: Grouped | null = null;

  /** Boxes of files numbered 0 to `files` - 1. */
  constructor(private readonly files: number) {}

  /** A box of file `file`, read in order (a file's boxes keep the order they were read in). */
  add(
    file: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    label: string,
    crowd: boolean,
    coco: string,
  ): void {
    const i = this.count++;
    if (i >= this.fileOf.length) {
      const n = i + 1;
      this.fileOf = grown(this.fileOf, n);
      this.labelOf = grown(this.labelOf, n);
      this.crowd = grown(this.crowd, n);
      this.cocoChunkOf = grown(this.cocoChunkOf, n);
      this.cocoEnd = grown(this.cocoEnd, n);
    }
    this.corners = grown(this.corners, 4 * (i + 1));
    this.fileOf[i] = file;
    this.corners[4 * i] = x0;
    this.corners[4 * i + 1] = y0;
    this.corners[4 * i + 2] = x1;
    this.corners[4 * i + 3] = y1;
    this.labelOf[i] = this.labels.indexOf(label);
    this.crowd[i] = crowd ? 1 : 0;
    this.pending.push(coco);
    this.pendingLength += coco.length;
    this.cocoChunkOf[i] = this.cocoChunks.length;
    this.cocoEnd[i] = this.pendingLength;
  }

  /** Joins the kept texts read since the last call: one string lives on, not one per box. */
  endChunk(): void {
    if (this.pending.length === 0) return;
    this.cocoChunks.push(this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
  }

  /** How many boxes file `file` has (once every box is added). */
  boxCount(file: number): number {
    const { first } = this.group();
    return (first[file + 1] ?? 0) - (first[file] ?? 0);
  }

  /** The boxes of `files` (file numbers as given to `add`), one file's after another's. */
  pack(files: readonly number[]): PackedBoxes {
    const { first, order } = this.group();
    let n = 0;
    for (const f of files) n += (first[f + 1] ?? 0) - (first[f] ?? 0);
    const numbers = new Float64Array(n * PACKED_NUMBERS);
    const flags = new Uint8Array(n);
    const labelAt = new Uint32Array(n);
    const cocoEnd = new Uint32Array(n);
    const labels = new StringTable();
    const local = new Int32Array(this.labels.strings.length).fill(-1);
    const kept = new KeptTexts();
    let cocoLength = 0;
    // Kept texts that follow one another in one chunk (a file's boxes as read, files in reading
    // order) are sliced once as a run, up to a part's length: a slice per box was most of the
    // packing's time.
    let run = { chunk: -1, from: 0, to: 0 };
    const endRun = () => {
      if (run.to > run.from) kept.add((this.cocoChunks[run.chunk] ?? '').slice(run.from, run.to));
    };
    let k = 0;
    for (const f of files) {
      for (let o = first[f] ?? 0; o < (first[f + 1] ?? 0); o++, k++) {
        const i = order[o] ?? 0;
        const at = k * PACKED_NUMBERS;
        for (let c = 0; c < 4; c++) numbers[at + c] = this.corners[4 * i + c] ?? NaN;
        // frame and time stay 0: COCO has none (NO_FRAME, NO_TIME).
        flags[k] =
          PACKED_FLAGS.NO_FRAME |
          PACKED_FLAGS.NO_TIME |
          PACKED_FLAGS.HAS_COCO |
          (this.crowd[i] ? PACKED_FLAGS.HAS_CROWD | PACKED_FLAGS.CROWD : 0);
        const g = this.labelOf[i] ?? 0;
        if ((local[g] ?? -1) < 0) local[g] = labels.indexOf(this.labels.strings[g] ?? '');
        labelAt[k] = local[g] ?? 0;
        const chunk = this.cocoChunkOf[i] ?? 0;
        const from = i > 0 && this.cocoChunkOf[i - 1] === chunk ? (this.cocoEnd[i - 1] ?? 0) : 0;
        const to = this.cocoEnd[i] ?? 0;
        if (chunk !== run.chunk || from !== run.to || to - run.from > KEPT_PART_CHARS) {
          endRun();
          run = { chunk, from, to };
        } else run.to = to;
        cocoLength += to - from;
        cocoEnd[k] = cocoLength;
      }
    }
    endRun();
    return { numbers, flags, labelAt, labels: labels.strings, cocoEnd, ...kept.done() };
  }

  /** A counting sort of the boxes by file, stable: each file's boxes in the order read. */
  private group(): Grouped {
    if (this.grouped) return this.grouped;
    this.endChunk();
    const first = new Uint32Array(this.files + 1);
    for (let i = 0; i < this.count; i++) {
      const f = (this.fileOf[i] ?? 0) + 1;
      first[f] = (first[f] ?? 0) + 1;
    }
    for (let f = 1; f < first.length; f++) first[f] = (first[f] ?? 0) + (first[f - 1] ?? 0);
    const next = first.slice();
    const order = new Uint32Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const f = this.fileOf[i] ?? 0;
      const at = next[f] ?? 0;
      order[at] = i;
      next[f] = at + 1;
    }
    this.grouped = { first, order };
    return this.grouped;
  }
}
