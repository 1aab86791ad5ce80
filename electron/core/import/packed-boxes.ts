/**
 * Boxes packed into typed arrays and one string, to cross from the label-reading thread: the
 * arrays are transferred, not copied, and unpacking a file's boxes at its turn builds its objects
 * directly. As JSON text (a string per file, stringified there and parsed here) the boxes of a
 * 20k-image COCO cost 0.2 s on each thread, the parse on the thread that writes.
 */
import { StringTable } from '../../shared/string-table.js';
import type { ImportedBox } from './import-model.js';

/** Numbers per box: x0, y0, x1, y1, frame, timeMs. */
export const PACKED_NUMBERS = 6;
/** Each box's flags (a reader that packs its own boxes, coco-box-columns.ts, sets them too). */
export const PACKED_FLAGS = {
  NORM: 1,
  HAS_CROWD: 2,
  CROWD: 4,
  NO_FRAME: 8,
  NO_TIME: 16,
  HAS_COCO: 32,
} as const;
const NUMBERS = PACKED_NUMBERS;
const { NORM, HAS_CROWD, CROWD, NO_FRAME, NO_TIME, HAS_COCO } = PACKED_FLAGS;

/** A run of boxes, in order (the boxes of several files, one after another). */
export interface PackedBoxes {
  numbers: Float64Array;
  flags: Uint8Array;
  /** Each box's label, an index into `labels`. */
  labelAt: Uint32Array;
  labels: string[];
  /**
   * Every box's kept COCO text, one after another, cut into parts between boxes (see
   * KeptTexts); `cocoEnd[i]` is where box i's ends, counted across the parts, and
   * `cocoStart[p]` where part p starts.
   */
  coco: string[];
  cocoStart: Uint32Array;
  cocoEnd: Uint32Array;
}

/**
 * Characters a part of the kept texts holds at most (unless one box's alone is longer). V8 gives a
 * string over 128 KB pages of its own, mapped and unmapped one by one: a quarter-megabyte string
 * per message was 40 times as slow to copy into a message and out as four shorter ones (0.9 s
 * against 0.02 s for 100 MB, on the 2-core machine), and a 100k COCO's 400 messages left the
 * import's thread receiving for a second before it could write.
 */
export const KEPT_PART_CHARS = 60_000;

/** Kept texts gathered into parts of at most KEPT_PART_CHARS, a piece (one or more boxes') whole. */
export class KeptTexts {
  private readonly parts: string[] = [];
  private readonly starts: number[] = [];
  private pieces: string[] = [];
  private partLength = 0;
  /** Characters added so far, over all parts. */
  length = 0;

  /** Whether a piece this long still fits the part being gathered. */
  private fits(chars: number): boolean {
    return this.partLength === 0 || this.partLength + chars <= KEPT_PART_CHARS;
  }

  add(piece: string): void {
    if (piece.length === 0) return;
    if (!this.fits(piece.length)) this.endPart();
    if (this.partLength === 0) this.starts.push(this.length);
    this.pieces.push(piece);
    this.partLength += piece.length;
    this.length += piece.length;
  }

  done(): Pick<PackedBoxes, 'coco' | 'cocoStart'> {
    this.endPart();
    return { coco: this.parts, cocoStart: Uint32Array.from(this.starts) };
  }

  private endPart(): void {
    if (this.partLength === 0) return;
    this.parts.push(this.pieces.join(''));
    this.pieces = [];
    this.partLength = 0;
  }
}

export function packBoxes(boxes: readonly ImportedBox[]): PackedBoxes {
  const n = boxes.length;
  const numbers = new Float64Array(n * NUMBERS);
  const flags = new Uint8Array(n);
  const labelAt = new Uint32Array(n);
  const cocoEnd = new Uint32Array(n);
  const labels = new StringTable();
  const kept = new KeptTexts();
  for (let i = 0; i < n; i++) {
    const b = boxes[i] as ImportedBox;
    const at = i * NUMBERS;
    numbers[at] = b.x0;
    numbers[at + 1] = b.y0;
    numbers[at + 2] = b.x1;
    numbers[at + 3] = b.y1;
    numbers[at + 4] = b.frame ?? 0;
    numbers[at + 5] = b.timeMs ?? 0;
    let f = b.unit === 'norm' ? NORM : 0;
    if (b.crowd !== undefined) f |= HAS_CROWD | (b.crowd ? CROWD : 0);
    if (b.frame === null) f |= NO_FRAME;
    if (b.timeMs === null) f |= NO_TIME;
    if (b.coco !== undefined) {
      f |= HAS_COCO;
      kept.add(b.coco);
    }
    flags[i] = f;
    cocoEnd[i] = kept.length;
    labelAt[i] = labels.indexOf(b.label);
  }
  return { numbers, flags, labelAt, labels: labels.strings, cocoEnd, ...kept.done() };
}

/** The buffers a message can transfer rather than copy. */
export const transferables = (p: PackedBoxes): ArrayBuffer[] =>
  [p.numbers, p.flags, p.labelAt, p.cocoStart, p.cocoEnd].map((a) => a.buffer as ArrayBuffer);

/** Boxes `first` to `first + count` (exclusive) of a run, as objects. */
export function unpackBoxes(p: PackedBoxes, first: number, count: number): ImportedBox[] {
  const boxes: ImportedBox[] = [];
  const { numbers, flags, labelAt, labels, coco, cocoStart, cocoEnd } = p;
  // The part holding the first box's text; later boxes' are in it or after it.
  let part = partOf(cocoStart, first > 0 ? (cocoEnd[first - 1] ?? 0) : 0);
  for (let i = first; i < first + count; i++) {
    const at = i * NUMBERS;
    const f = flags[i] ?? 0;
    const box: ImportedBox = {
      label: labels[labelAt[i] ?? 0] ?? '',
      unit: f & NORM ? 'norm' : 'px',
      x0: numbers[at] ?? NaN,
      y0: numbers[at + 1] ?? NaN,
      x1: numbers[at + 2] ?? NaN,
      y1: numbers[at + 3] ?? NaN,
      frame: f & NO_FRAME ? null : (numbers[at + 4] ?? 0),
      timeMs: f & NO_TIME ? null : (numbers[at + 5] ?? 0),
    };
    if (f & HAS_CROWD) box.crowd = (f & CROWD) !== 0;
    if (f & HAS_COCO) {
      const from = i > 0 ? (cocoEnd[i - 1] ?? 0) : 0;
      while (part + 1 < cocoStart.length && (cocoStart[part + 1] ?? 0) <= from) part++;
      const start = cocoStart[part] ?? 0;
      box.coco = (coco[part] ?? '').slice(from - start, (cocoEnd[i] ?? 0) - start);
    }
    boxes.push(box);
  }
  return boxes;
}

/** The last part starting at or before `at` (a box's text never spans two). */
function partOf(starts: Uint32Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
