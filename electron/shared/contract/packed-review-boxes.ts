/**
 * A clip's boxes in columns, for `review.boxesPacked`: 50,000 boxes as objects are 20+ MB of JSON
 * and as many objects for the UI to parse and check, while in two typed arrays (base64, little-
 * endian) with their strings listed once they are a quarter of that, checked as four strings and
 * read back in one pass. Packing and unpacking are exact: every field comes back as it went.
 * Encoding the arrays as base64 is left to each side (Node's Buffer, the browser's atob).
 */
import { z } from './zod.js';
import type { ReviewBox } from './review-schemas.js';
import { BoxSchema } from '../geometry/box.js';

const ModelBox = z.object({
  label: z.string(),
  score: z.number().nullable(),
  bbox: BoxSchema,
});

export const PackedReviewBoxes = z.object({
  count: z.number().int().min(0),
  strings: z.array(z.string()),
  /** Float64 × 6 per box: x, y, w, h, score, timeMs (NaN: null). */
  numbers: z.string(),
  /** Int32 × 7 per box: frame, detection (-1), correction (-1), track (-1), label, rule (-1), flags. */
  ints: z.string(),
  /** The model's box where it differs from the box itself (flag MODEL_LISTED). */
  models: z.array(z.tuple([z.number().int(), ModelBox])),
  /** A key not made from the box's ids (never so today; kept exact all the same). */
  keys: z.array(z.tuple([z.number().int(), z.string()])),
});
export type PackedReviewBoxes = z.infer<typeof PackedReviewBoxes>;

export const ReviewBoxesPacked = z.object({
  analysedWidth: z.number().nullable(),
  analysedHeight: z.number().nullable(),
  packed: PackedReviewBoxes,
});

/** The packed form with its arrays still typed (before base64, after it is read back). */
export type PackedColumns = Omit<PackedReviewBoxes, 'numbers' | 'ints'> & {
  numbers: Float64Array;
  ints: Int32Array;
};

const NUMBERS = 6;
const INTS = 7;
const ORIGINS = ['model', 'edited', 'added'] as const;
const REVIEWS = ['pending', 'accepted', 'rejected'] as const;
const DELETED = 1 << 4;
const MODEL_NULL = 1 << 5;
const MODEL_LISTED = 1 << 6;
const CROWD = 1 << 7;
const KEYFRAME = 1 << 8;

const keyOf = (b: Pick<ReviewBox, 'detectionId' | 'correctionId'>) =>
  b.detectionId !== null ? `d${b.detectionId}` : `c${b.correctionId}`;

function sameAsBox(b: ReviewBox): boolean {
  const m = b.model;
  return (
    m !== null &&
    m.label === b.label &&
    m.score === b.score &&
    m.bbox.x === b.bbox.x &&
    m.bbox.y === b.bbox.y &&
    m.bbox.w === b.bbox.w &&
    m.bbox.h === b.bbox.h
  );
}

export function packReviewBoxes(boxes: readonly ReviewBox[]): PackedColumns {
  const n = boxes.length;
  const numbers = new Float64Array(n * NUMBERS);
  const ints = new Int32Array(n * INTS);
  const strings: string[] = [];
  const index = new Map<string, number>();
  const str = (s: string) => {
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = strings.push(s) - 1));
    return i;
  };
  const models: PackedColumns['models'] = [];
  const keys: PackedColumns['keys'] = [];
  boxes.forEach((b, i) => {
    numbers.set(
      [b.bbox.x, b.bbox.y, b.bbox.w, b.bbox.h, b.score ?? NaN, b.timeMs ?? NaN],
      i * NUMBERS,
    );
    let flags = ORIGINS.indexOf(b.origin) | (REVIEWS.indexOf(b.review) << 2);
    if (b.deleted) flags |= DELETED;
    if (b.crowd === true) flags |= CROWD;
    if (b.keyframe === true) flags |= KEYFRAME;
    if (b.model === null) flags |= MODEL_NULL;
    else if (!sameAsBox(b)) {
      flags |= MODEL_LISTED;
      models.push([i, b.model]);
    }
    if (b.key !== keyOf(b)) keys.push([i, b.key]);
    ints.set(
      [
        b.frameIndex,
        b.detectionId ?? -1,
        b.correctionId ?? -1,
        b.trackId ?? -1,
        str(b.label),
        b.rule === null || b.rule === undefined ? -1 : str(b.rule),
        flags,
      ],
      i * INTS,
    );
  });
  return { count: n, strings, numbers, ints, models, keys };
}

/**
 * The boxes back, in one pass that builds each object whole with its fields in one order (a
 * spread or a helper object per box made 50,000 boxes several times slower to read). A box's
 * model, when it is the box itself, shares the box's `bbox`: boxes are never changed in place.
 */
export function unpackReviewBoxes(p: PackedColumns): ReviewBox[] {
  const { numbers: f, ints: k, strings } = p;
  // Usually both are empty: then no lookup per box.
  const models = p.models.length > 0 ? new Map(p.models) : null;
  const keys = p.keys.length > 0 ? new Map(p.keys) : null;
  const out = new Array<ReviewBox>(p.count);
  for (let i = 0; i < p.count; i++) {
    const a = i * NUMBERS;
    const j = i * INTS;
    const detection = k[j + 1] as number;
    const correction = k[j + 2] as number;
    const track = k[j + 3] as number;
    const rule = k[j + 5] as number;
    const flags = k[j + 6] as number;
    const timeMs = f[a + 5] as number;
    const label = strings[k[j + 4] as number] as string;
    const scored = f[a + 4] as number;
    const score = Number.isNaN(scored) ? null : scored;
    const bbox = {
      x: f[a] as number,
      y: f[a + 1] as number,
      w: f[a + 2] as number,
      h: f[a + 3] as number,
    };
    const detectionId = detection < 0 ? null : detection;
    const correctionId = correction < 0 ? null : correction;
    out[i] = {
      key: keys?.get(i) ?? (detectionId !== null ? `d${detectionId}` : `c${correctionId}`),
      detectionId,
      correctionId,
      frameIndex: k[j] as number,
      ...((flags & KEYFRAME) !== 0 ? { keyframe: true } : {}),
      timeMs: timeMs !== timeMs ? null : timeMs, // NaN (a call per box costs in cold code)
      label,
      score,
      bbox,
      origin: ORIGINS[flags & 3] as ReviewBox['origin'],
      review: REVIEWS[(flags >> 2) & 3] as ReviewBox['review'],
      deleted: (flags & DELETED) !== 0,
      ...((flags & CROWD) !== 0 ? { crowd: true } : {}),
      model:
        flags & MODEL_NULL
          ? null
          : flags & MODEL_LISTED
            ? (models?.get(i) ?? null)
            : { label, score, bbox },
      trackId: track < 0 ? null : track,
      rule: rule < 0 ? null : (strings[rule] as string),
    };
  }
  return out;
}
