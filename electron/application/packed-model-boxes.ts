/**
 * Pages of model boxes packed into typed arrays: what is held is a few arrays rather than objects
 * the collector copies and walks (as objects, 200k held boxes added 130 MB to the peak RSS), and a
 * page read on another thread crosses to the import's by transfer, not by copy.
 */
import type { RawDetection } from '../core/store/row-mappers.js';
import type { DetectionRow } from '../core/store/store-types.js';
import { StringTable } from '../shared/string-table.js';

/** Numbers per box: id, resultId, frameIndex, timeMs, classId, score, x, y, w, h. */
const N = 10;

export interface PackedModelBoxes {
  numbers: Float64Array;
  /** Per box: label, origin, review, as indexes into `strings`. */
  texts: Uint32Array;
  /** Per box, the nulls: 1 timeMs, 2 classId, 4 score. */
  nulls: Uint8Array;
  strings: string[];
}

/** The first `count` rows of a page of raw boxes, packed. */
export function packModelBoxes(rows: readonly RawDetection[], count: number): PackedModelBoxes {
  const table = new StringTable();
  const numbers = new Float64Array(count * N);
  const texts = new Uint32Array(count * 3);
  const nulls = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const [id, resultId, frameIndex, timeMs, label, classId, score, x, y, w, h, origin, review] =
      rows[i] as RawDetection;
    const n = i * N;
    numbers[n] = id;
    numbers[n + 1] = resultId;
    numbers[n + 2] = frameIndex;
    numbers[n + 3] = timeMs ?? 0;
    numbers[n + 4] = classId ?? 0;
    // A stored score may be null (a service's box without one) whatever the row type says.
    numbers[n + 5] = (score as number | null) ?? 0;
    numbers[n + 6] = x;
    numbers[n + 7] = y;
    numbers[n + 8] = w;
    numbers[n + 9] = h;
    nulls[i] =
      (timeMs === null ? 1 : 0) |
      (classId === null ? 2 : 0) |
      ((score as number | null) === null ? 4 : 0);
    texts[i * 3] = table.indexOf(label);
    texts[i * 3 + 1] = table.indexOf(origin);
    texts[i * 3 + 2] = table.indexOf(review);
  }
  return { numbers, texts, nulls, strings: table.strings };
}

/** How many boxes the page holds. */
export const packedCount = (page: PackedModelBoxes) => page.nulls.length;

/** The result id of the page's box `i`. */
export const packedResultId = (page: PackedModelBoxes, i: number) => page.numbers[i * N + 1] ?? 0;

/** Boxes `from` to `from + count` of the page, as the store's rows. */
export function unpackModelBoxes(
  { numbers, texts, nulls, strings }: PackedModelBoxes,
  from: number,
  count: number,
): DetectionRow[] {
  const boxes: DetectionRow[] = [];
  for (let i = from; i < from + count; i++) {
    const n = i * N;
    const null_ = nulls[i] ?? 0;
    boxes.push({
      id: numbers[n] ?? 0,
      resultId: numbers[n + 1] ?? 0,
      frameIndex: numbers[n + 2] ?? 0,
      timeMs: null_ & 1 ? null : (numbers[n + 3] ?? 0),
      label: strings[texts[i * 3] ?? 0] ?? '',
      classId: null_ & 2 ? null : (numbers[n + 4] ?? 0),
      score: null_ & 4 ? null : (numbers[n + 5] ?? 0),
      bbox: {
        x: numbers[n + 6] ?? 0,
        y: numbers[n + 7] ?? 0,
        w: numbers[n + 8] ?? 0,
        h: numbers[n + 9] ?? 0,
      },
      origin: strings[texts[i * 3 + 1] ?? 0] as DetectionRow['origin'],
      review: strings[texts[i * 3 + 2] ?? 0] as DetectionRow['review'],
    });
  }
  return boxes;
}

/** Transfer list of a page (its arrays move to the receiving thread). */
export const packedTransfer = (page: PackedModelBoxes): ArrayBuffer[] => [
  page.numbers.buffer as ArrayBuffer,
  page.texts.buffer as ArrayBuffer,
  page.nulls.buffer as ArrayBuffer,
];

/**
 * Of a page of rows read in result id order, how many to keep: all when the page was not full,
 * else up to where its last result begins (a page may cut that one short; it is read again with
 * the next page). 0: one result fills the whole page (a long clip).
 */
export function wholeResults(page: readonly RawDetection[], limit: number): number {
  if (page.length < limit) return page.length;
  const last = (page[page.length - 1] as RawDetection)[1];
  return page.findIndex((d) => d[1] === last);
}
