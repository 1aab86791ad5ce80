/**
 * COCOeval's summary (its `stats`): AP over IoU 0.50:0.95, at 0.50 and 0.75, AP by area range,
 * and AR at 1, 10 and 100 model boxes per image and by area range; per class AP and AR by range.
 *
 * COCO's rules for a range: a truth box is ignored when its area (its source's `area`, COCO's
 * annotation field, else the box's own in pixels) lies outside the range, and a model box that
 * matched nothing is ignored when its own box's area does; a model box matched to an ignored
 * truth box is ignored too (see match-in-class.ts). Bounds belong to both ranges they end, as in
 * COCO. Area ranges need the picture's size: without it for every image they are -1.
 */
import { classPrecision } from './average-precision.js';
import { IOU_THRESHOLDS } from './coco-thresholds.js';
import type {
  AreaRange,
  CocoSummary,
  EvalImage,
  ModelBox,
  RangeFigures,
  TruthBox,
} from './evaluation-types.js';
import { matchInClass, type ClassMatch } from './match-in-class.js';

export const AREA_RANGES = {
  all: [0, 1e10],
  small: [0, 32 ** 2],
  medium: [32 ** 2, 96 ** 2],
  large: [96 ** 2, 1e10],
} as const satisfies Record<AreaRange, readonly [number, number]>;
const RANGES = Object.keys(AREA_RANGES) as AreaRange[];
/** IOU_THRESHOLDS[5] is 0.75 (AP75, COCO's stats[2]). */
const AP75 = 5;
/** COCO's maxDets: AR counts at most this many model boxes per image and class. */
export const MAX_DETS = [1, 10, 100] as const;

/** Per range and class, each model box taking part: its rank, and its bits packed in one number. */
interface RangeTally {
  scores: number[];
  /** Match mask (bits 0-9), ignored mask (10-19), place among its image's boxes (20 on). */
  bits: number[];
  truth: number;
}

const ALL_BITS = (1 << IOU_THRESHOLDS.length) - 1;
const outside = (area: number, [lo, hi]: readonly [number, number]) => area < lo || area > hi;

const mean = (values: readonly number[]) => {
  const defined = values.filter((v) => v > -1);
  return defined.length ? defined.reduce((s, v) => s + v, 0) / defined.length : -1;
};

function rangeFigures(t: RangeTally): RangeFigures & { apByThreshold: number[] } {
  if (t.truth === 0) return { ap: -1, ar: [-1, -1, -1], apByThreshold: [] };
  const masks = t.bits.map((b) => b & ALL_BITS);
  const ignored = t.bits.map((b) => (b >> 10) & ALL_BITS);
  const { apByThreshold } = classPrecision(t.scores, masks, t.truth, ignored);
  const ar = MAX_DETS.map((max) =>
    mean(
      IOU_THRESHOLDS.map((_, k) => {
        const bit = 1 << k;
        let found = 0;
        t.bits.forEach((b, d) => {
          if (b >> 20 < max && (masks[d] as number) & bit && !((ignored[d] as number) & bit))
            found++;
        });
        return found / t.truth;
      }),
    ),
  ) as RangeFigures['ar'];
  return { ap: mean(apByThreshold), ar, apByThreshold };
}

export class CocoSummaryTally {
  private readonly tallies = new Map<string, Record<AreaRange, RangeTally>>();
  private sized = true;

  /**
   * One image's boxes of one class: `model` in score order, at most 100, and `all` its matching
   * over the whole range (evaluate's own, reused where a range ignores no more truth than it).
   */
  add(
    image: EvalImage,
    label: string,
    truth: readonly TruthBox[],
    model: readonly ModelBox[],
    all: Pick<ClassMatch, 'masks' | 'ignored'>,
  ): void {
    let t = this.tallies.get(label);
    if (!t) {
      const empty = (): RangeTally => ({ scores: [], bits: [], truth: 0 });
      t = { all: empty(), small: empty(), medium: empty(), large: empty() };
      this.tallies.set(label, t);
    }
    const { width, height } = image;
    // One picture of unknown size and no area range can be told: they are then left out.
    if (!width || !height) this.sized = false;
    const W = width ?? 0;
    const H = height ?? 0;
    const truthAreas = truth.map((b) => b.area ?? b.bbox.w * W * b.bbox.h * H);
    const modelAreas = model.map((m) => m.bbox.w * W * m.bbox.h * H);
    for (const range of this.sized ? RANGES : RANGES.slice(0, 1)) {
      const bounds = AREA_RANGES[range];
      const ignore = Uint8Array.from(truthAreas, (a) => (outside(a, bounds) ? 1 : 0));
      const same = ignore.every((v, g) => v === 0 || truth[g]?.crowd === true);
      const match =
        range === 'all' || same
          ? all
          : matchInClass(
              truth,
              model.map((m) => m.bbox),
              ignore,
            );
      const tally = t[range];
      truth.forEach((b, g) => {
        if (!b.crowd && !ignore[g]) tally.truth++;
      });
      model.forEach((m, d) => {
        let ignored = match.ignored[d] as number;
        // A model box that matched nothing at a threshold, outside the range: ignored there.
        if (range !== 'all' && outside(modelAreas[d] as number, bounds))
          ignored |= ~(match.masks[d] as number) & ALL_BITS;
        // Ignored at every threshold: COCO leaves it out of both AP and AR (most boxes, outside
        // a range), so it is not kept.
        if (ignored === ALL_BITS) return;
        tally.scores.push(m.score ?? -Infinity);
        tally.bits.push((match.masks[d] as number) | (ignored << 10) | (d << 20));
      });
    }
  }

  summary(): CocoSummary {
    const byThreshold: number[][] = [];
    const classes = [...this.tallies.keys()].sort().map((label) => {
      const t = this.tallies.get(label) as Record<AreaRange, RangeTally>;
      const ranges = {} as Record<AreaRange, RangeFigures>;
      for (const r of RANGES) {
        const { ap, ar, apByThreshold } =
          r === 'all' || this.sized ? rangeFigures(t[r]) : rangeFigures({ ...t[r], truth: 0 });
        ranges[r] = { ap, ar };
        if (r === 'all') byThreshold.push(apByThreshold);
      }
      return { label, ranges };
    });
    const over = (f: (c: (typeof classes)[number]) => number) => mean(classes.map(f));
    const apAt = (k: number) => mean(byThreshold.map((a) => a[k] ?? -1));
    return {
      stats: [
        over((c) => c.ranges.all.ap),
        apAt(0),
        apAt(AP75),
        over((c) => c.ranges.small.ap),
        over((c) => c.ranges.medium.ap),
        over((c) => c.ranges.large.ap),
        ...MAX_DETS.map((_, m) => over((c) => c.ranges.all.ar[m] as number)),
        over((c) => c.ranges.small.ar[2]),
        over((c) => c.ranges.medium.ar[2]),
        over((c) => c.ranges.large.ar[2]),
      ],
      classes,
    };
  }
}
