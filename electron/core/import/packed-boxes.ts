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
  /** Every box's kept COCO fields, one after another; `cocoEnd[i]` is where box i's end. */
  coco: string;
  cocoEnd: Uint32Array;
}

export function packBoxes(boxes: readonly ImportedBox[]): PackedBoxes {
  const n = boxes.length;
  const numbers = new Float64Array(n * NUMBERS);
  const flags = new Uint8Array(n);
  const labelAt = new Uint32Array(n);
  const cocoEnd = new Uint32Array(n);
  const labels = new StringTable();
  const coco: string[] = [];
  let cocoLength = 0;
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
      coco.push(b.coco);
      cocoLength += b.coco.length;
    }
    flags[i] = f;
    cocoEnd[i] = cocoLength;
    labelAt[i] = labels.indexOf(b.label);
  }
  return { numbers, flags, labelAt, labels: labels.strings, coco: coco.join(''), cocoEnd };
}

/** The buffers a message can transfer rather than copy. */
export const transferables = (p: PackedBoxes): ArrayBuffer[] =>
  [p.numbers, p.flags, p.labelAt, p.cocoEnd].map((a) => a.buffer as ArrayBuffer);

/** Boxes `first` to `first + count` (exclusive) of a run, as objects. */
export function unpackBoxes(p: PackedBoxes, first: number, count: number): ImportedBox[] {
  const boxes: ImportedBox[] = [];
  const { numbers, flags, labelAt, labels, coco, cocoEnd } = p;
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
    if (f & HAS_COCO) box.coco = coco.slice(i > 0 ? (cocoEnd[i - 1] ?? 0) : 0, cocoEnd[i]);
    boxes.push(box);
  }
  return boxes;
}
