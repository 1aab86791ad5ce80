/**
 * An independent reference for the model-quality figures, written from the definitions (COCO's
 * evaluate / accumulate as published in pycocotools, no crowd, one area range) rather than from the
 * product code: flat annotation lists, evaluation per (image, category), accumulation by sorting
 * all detections of a category, AP read off the precision envelope at 101 recall points.
 */

export interface RefBox {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface RefAnnotation {
  image: number;
  category: string;
  bbox: RefBox;
}
export interface RefDetection extends RefAnnotation {
  score: number;
}

export interface RefClass {
  label: string;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  ap50: number;
  ap: number;
}

/** numpy.linspace as written in numpy: arange(num) * step + start, the endpoint set exactly. */
function npLinspace(start: number, stop: number, num: number): number[] {
  const step = (stop - start) / (num - 1);
  const out: number[] = [];
  for (let i = 0; i < num; i++) out.push(i * step + start);
  out[num - 1] = stop;
  return out;
}
const IOU_THRS = npLinspace(0.5, 0.95, Math.round((0.95 - 0.5) / 0.05) + 1);
const REC_THRS = npLinspace(0, 1, Math.round(1 / 0.01) + 1);
const MAX_DET = 100;

/** Box overlap as COCO's bbIou computes it for non-crowd boxes. */
function bbIou(d: RefBox, g: RefBox): number {
  const w = Math.min(d.x + d.w, g.x + g.w) - Math.max(d.x, g.x);
  if (w <= 0) return 0;
  const h = Math.min(d.y + d.h, g.y + g.h) - Math.max(d.y, g.y);
  if (h <= 0) return 0;
  const i = w * h;
  return i / (d.w * d.h + g.w * g.h - i);
}

/** evaluateImg for one image and category: dtMatches[t][d] (gt index or -1), scores in dt order. */
function evaluateImg(gts: RefAnnotation[], dtsAll: RefDetection[]) {
  const order = dtsAll.map((d, i) => [d, i] as const);
  // Stable sort by descending score, as np.argsort(-scores, kind='mergesort').
  order.sort((a, b) => (a[0].score === b[0].score ? a[1] - b[1] : b[0].score - a[0].score));
  const dts = order.slice(0, MAX_DET).map((o) => o[0]);
  const ious = dts.map((d) => gts.map((g) => bbIou(d.bbox, g.bbox)));
  const dtMatches = IOU_THRS.map((t) => {
    const gtm = gts.map(() => -1);
    return dts.map((_, dind) => {
      let iou = Math.min(t, 1 - 1e-10);
      let m = -1;
      for (let gind = 0; gind < gts.length; gind++) {
        if (gtm[gind]! >= 0) continue;
        if (ious[dind]![gind]! < iou) continue;
        iou = ious[dind]![gind]!;
        m = gind;
      }
      if (m === -1) return -1;
      gtm[m] = dind;
      return m;
    });
  });
  return { dtMatches, dtScores: dts.map((d) => d.score), nGt: gts.length };
}

/** The 101-point interpolated precision of one category at one IoU threshold index. */
function accumulateOne(evals: ReturnType<typeof evaluateImg>[], t: number): number[] {
  const scores = evals.flatMap((e) => e.dtScores);
  const matched = evals.flatMap((e) => e.dtMatches[t]!.map((m) => m >= 0));
  const npig = evals.reduce((s, e) => s + e.nGt, 0);
  const inds = scores.map((_, i) => i);
  inds.sort((a, b) => (scores[a] === scores[b] ? a - b : scores[b]! - scores[a]!));
  const eps = Number.EPSILON;
  let tp = 0;
  let fp = 0;
  const rc: number[] = [];
  const pr: number[] = [];
  for (const i of inds) {
    if (matched[i]) tp++;
    else fp++;
    rc.push(tp / npig);
    pr.push(tp / (fp + tp + eps));
  }
  for (let i = pr.length - 1; i > 0; i--) if (pr[i]! > pr[i - 1]!) pr[i - 1] = pr[i]!;
  const q = REC_THRS.map(() => 0);
  for (let ri = 0; ri < REC_THRS.length; ri++) {
    // searchsorted(rc, r, side='left'): the first index whose recall is at least r.
    let pi = 0;
    while (pi < rc.length && rc[pi]! < REC_THRS[ri]!) pi++;
    if (pi >= rc.length) break;
    q[ri] = pr[pi]!;
  }
  return q;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

export function cocoReference(
  imageIds: number[],
  truth: RefAnnotation[],
  detections: RefDetection[],
  minScore = 0,
): { classes: RefClass[]; map50: number; map: number; curves: Map<string, number[]> } {
  const categories = [...new Set([...truth, ...detections].map((a) => a.category))].sort();
  const curves = new Map<string, number[]>();
  const classes = categories.map((cat): RefClass => {
    const evals = imageIds.map((img) =>
      evaluateImg(
        truth.filter((a) => a.image === img && a.category === cat),
        detections.filter((d) => d.image === img && d.category === cat),
      ),
    );
    const npig = evals.reduce((s, e) => s + e.nGt, 0);
    // The counts by their plain definition: boxes under the minimum score are not there at all.
    let tp = 0;
    let fp = 0;
    for (const img of imageIds) {
      const e = evaluateImg(
        truth.filter((a) => a.image === img && a.category === cat),
        detections.filter((d) => d.image === img && d.category === cat && d.score >= minScore),
      );
      const matched = e.dtMatches[0]!.filter((m) => m >= 0).length;
      tp += matched;
      fp += e.dtScores.length - matched;
    }
    const aps =
      npig === 0 ? IOU_THRS.map(() => -1) : IOU_THRS.map((_, t) => mean(accumulateOne(evals, t)));
    if (npig > 0) curves.set(cat, accumulateOne(evals, 0));
    return {
      label: cat,
      tp,
      fp,
      fn: npig - tp,
      precision: tp + fp > 0 ? tp / (tp + fp) : -1,
      recall: npig > 0 ? tp / npig : -1,
      ap50: aps[0]!,
      ap: npig === 0 ? -1 : mean(aps),
    };
  });
  const defined = (xs: number[]) => xs.filter((x) => x > -1);
  const m50 = defined(classes.map((c) => c.ap50));
  const m = defined(classes.map((c) => c.ap));
  return {
    classes,
    map50: m50.length ? mean(m50) : -1,
    map: m.length ? mean(m) : -1,
    curves,
  };
}
