/**
 * Scores against known labels, by the evaluation engine (evaluate.ts, IoU ≥ 0.5): a member's
 * version of each honeypot they reviewed measured against its truth (their precision and recall),
 * and the model's own boxes against the team's labels on every reviewed file. Pure.
 */
import { evaluate } from '../evaluation/evaluate.js';
import type { EvalImage, ModelBox, TruthBox } from '../evaluation/evaluation-types.js';
import type { HubAnswer } from './hub-client.js';
import type { TruthBoxOf } from './member-versions.js';

export interface Scores {
  tp: number;
  fp: number;
  fn: number;
  /** null when undefined (no box on that side). */
  precision: number | null;
  recall: number | null;
}

/** One image per solution and frame of a file, truth and "model" (the side measured) apart. */
function imagesOf(
  file: number,
  path: string,
  truth: readonly TruthBoxOf[],
  measured: readonly (TruthBoxOf & { score: number | null })[],
): EvalImage[] {
  const frames = new Map<string, { frameIndex: number; truth: TruthBox[]; model: ModelBox[] }>();
  const frame = (b: TruthBoxOf) => {
    const k = `${b.solution}\u0000${b.frameIndex}`;
    let f = frames.get(k);
    if (!f) frames.set(k, (f = { frameIndex: b.frameIndex, truth: [], model: [] }));
    return f;
  };
  truth.forEach((b, i) => frame(b).truth.push({ key: `t${i}`, label: b.label, bbox: b.bbox }));
  measured.forEach((b, i) =>
    frame(b).model.push({ key: `m${i}`, label: b.label, score: b.score, bbox: b.bbox }),
  );
  return [...frames.values()].map((f) => ({ mediaId: file, path, ...f }));
}

function scoresOf(report: ReturnType<typeof evaluate>): Scores {
  const tp = report.classes.reduce((n, c) => n + c.tp, 0);
  const fp = report.classes.reduce((n, c) => n + c.fp, 0);
  const fn = report.classes.reduce((n, c) => n + c.fn, 0);
  return {
    tp,
    fp,
    fn,
    precision: tp + fp > 0 ? tp / (tp + fp) : null,
    recall: tp + fn > 0 ? tp / (tp + fn) : null,
  };
}

/** A member's boxes on honeypots against their known labels (a person's box has no score). */
export function honeypotScores(
  files: readonly { truth: readonly TruthBoxOf[]; version: readonly TruthBoxOf[] }[],
): Scores & { files: number } {
  const images = files.flatMap((f, i) =>
    imagesOf(
      i,
      '',
      f.truth,
      f.version.map((b) => ({ ...b, score: null })),
    ),
  );
  return { ...scoresOf(evaluate(images)), files: files.length };
}

export interface ModelQuality extends Scores {
  files: number;
  /** COCO's mean AP at IoU 0.5 over the classes with truth; null when none has any. */
  map50: number | null;
  classes: {
    label: string;
    precision: number | null;
    recall: number | null;
    ap50: number | null;
  }[];
}

const defined = (v: number) => (v < 0 ? null : v);

/** One reviewed file's model answers and team labels as evaluation images (`file`: its index). */
export function modelImages(
  file: number,
  answers: ReadonlyMap<string, HubAnswer['answer']>,
  labels: readonly TruthBoxOf[],
): EvalImage[] {
  const model = [...answers].flatMap(([solution, a]) =>
    a.detections.map((d) => ({
      solution,
      frameIndex: d.frameIndex,
      label: d.label,
      bbox: d.bbox,
      score: d.score,
    })),
  );
  return imagesOf(file, '', labels, model);
}

/** The model's quality over images gathered page by page (`modelImages`) from `files` files. */
export function modelQualityOf(images: readonly EvalImage[], files: number): ModelQuality {
  const report = evaluate(images);
  return {
    ...scoresOf(report),
    files,
    map50: defined(report.map50),
    classes: report.classes.map((c) => ({
      label: c.label,
      precision: defined(c.precision),
      recall: defined(c.recall),
      ap50: defined(c.ap50),
    })),
  };
}

/** The model's answers against the team's labels of the reviewed files. */
export function modelQuality(
  files: readonly { answers: ReadonlyMap<string, HubAnswer['answer']>; labels: TruthBoxOf[] }[],
): ModelQuality {
  return modelQualityOf(
    files.flatMap((f, i) => modelImages(i, f.answers, f.labels)),
    files.length,
  );
}
