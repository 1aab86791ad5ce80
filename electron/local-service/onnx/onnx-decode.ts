/**
 * An own model's first output to boxes, per layout (onnx-types.ts). Boxes come out in input
 * pixels (RT-DETR: 0–1 of the input), are mapped back through the placement, and go through
 * class-wise NMS unless the model already did it (RT-DETR, end-to-end exports).
 */
import type { EngineDetection, NormalisedBox } from '../engine/engine-types.js';
import { labelOf } from '../engine/model-runner.js';
import { iou } from '../engine/nms.js';
import { toImageBox, type Placement } from './onnx-prep.js';
import { gridCells, OWN_MODEL_SCORE_FLOOR, type OnnxType } from './onnx-types.js';

/** Ultralytics' defaults for NMS and the number of boxes kept. */
const IOU_THRESHOLD = 0.7;
const MAX_BOXES = 300;
/** Candidates sorted into NMS at most: the best ones. */
const MAX_CANDIDATES = 3000;

export interface DecodeInput {
  type: OnnxType;
  data: Float32Array;
  dims: readonly number[];
  input: { width: number; height: number };
  place: Placement;
  classes: readonly string[];
}

interface Raw {
  classId: number;
  score: number;
  /** Corners in input pixels. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

const centre = (classId: number, score: number, cx: number, cy: number, w: number, h: number) => ({
  classId,
  score,
  x1: cx - w / 2,
  y1: cy - h / 2,
  x2: cx + w / 2,
  y2: cy + h / 2,
});

function best(at: (c: number) => number, count: number): [number, number] {
  let classId = 0;
  let score = -Infinity;
  for (let c = 0; c < count; c++) {
    const s = at(c);
    if (s > score) [classId, score] = [c, s];
  }
  return [classId, score];
}

/** [1, 4 + C, N], transposed, no objectness: read class row by class row (contiguous). */
function yolov8(d: Float32Array, rows: number, n: number): Raw[] {
  const bestScore = new Float32Array(n).fill(-Infinity);
  const bestClass = new Int32Array(n);
  for (let c = 0; c < rows - 4; c++) {
    const row = (4 + c) * n;
    for (let i = 0; i < n; i++) {
      const s = d[row + i] as number;
      if (s > (bestScore[i] as number)) {
        bestScore[i] = s;
        bestClass[i] = c;
      }
    }
  }
  const out: Raw[] = [];
  for (let i = 0; i < n; i++) {
    const score = bestScore[i] as number;
    if (!(score >= OWN_MODEL_SCORE_FLOOR)) continue;
    const [cx, cy, w, h] = [d[i], d[n + i], d[2 * n + i], d[3 * n + i]] as number[];
    out.push(centre(bestClass[i] as number, score, cx ?? 0, cy ?? 0, w ?? 0, h ?? 0));
  }
  return out;
}

/** [1, N, 5 + C]: centre boxes, objectness, class probabilities. YOLOX may be raw grid offsets. */
function withObjectness(d: Float32Array, n: number, cols: number, grid?: Grid): Raw[] {
  const out: Raw[] = [];
  for (let i = 0; i < n; i++) {
    const row = i * cols;
    const obj = d[row + 4] ?? 0;
    if (!(obj >= OWN_MODEL_SCORE_FLOOR)) continue;
    const [c, p] = best((k) => d[row + 5 + k] ?? 0, cols - 5);
    const score = obj * p;
    if (!(score >= OWN_MODEL_SCORE_FLOOR)) continue;
    let [cx = 0, cy = 0, w = 0, h = 0] = [0, 1, 2, 3].map((k) => d[row + k]);
    if (grid) {
      const { gx, gy, stride } = grid.cell(i);
      [cx, cy, w, h] = [
        (cx + gx) * stride,
        (cy + gy) * stride,
        Math.exp(w) * stride,
        Math.exp(h) * stride,
      ];
    }
    out.push(centre(c, score, cx, cy, w, h));
  }
  return out;
}

interface Grid {
  cell(i: number): { gx: number; gy: number; stride: number };
}

/** YOLOX's rows walk stride 8's grid row by row, then 16's, then 32's. */
function yoloxGrid(input: { width: number; height: number }): Grid {
  const levels = [8, 16, 32].map((stride) => ({
    stride,
    cols: Math.ceil(input.width / stride),
    cells: Math.ceil(input.width / stride) * Math.ceil(input.height / stride),
  }));
  return {
    cell(i) {
      let rest = i;
      for (const l of levels) {
        if (rest < l.cells)
          return { gx: rest % l.cols, gy: Math.floor(rest / l.cols), stride: l.stride };
        rest -= l.cells;
      }
      return { gx: 0, gy: 0, stride: 32 };
    },
  };
}

/** A YOLOX export decoded in the graph has centres in pixels; raw offsets stay near the cell. */
function yoloxIsRaw(
  d: Float32Array,
  n: number,
  cols: number,
  input: { width: number; height: number },
): boolean {
  let max = 0;
  for (let i = 0; i < n; i++) max = Math.max(max, Math.abs(d[i * cols] ?? 0));
  return n === gridCells(input.width, input.height) && max < 8;
}

function decodeRaw(q: DecodeInput): Raw[] {
  const [, a = 0, b = 0] = q.dims;
  const d = q.data;
  switch (q.type) {
    case 'yolov8':
    case 'yolo11':
      return yolov8(d, a, b);
    case 'yolov5':
      return withObjectness(d, a, b);
    case 'yolox':
      return withObjectness(d, a, b, yoloxIsRaw(d, a, b, q.input) ? yoloxGrid(q.input) : undefined);
    case 'rtdetr': {
      const out: Raw[] = [];
      for (let i = 0; i < a; i++) {
        const [c, score] = best((k) => d[i * b + 4 + k] ?? 0, b - 4);
        if (!(score >= OWN_MODEL_SCORE_FLOOR)) continue;
        const [cx = 0, cy = 0, w = 0, h = 0] = [0, 1, 2, 3].map((k) => d[i * b + k]);
        const [sx, sy] = [q.input.width, q.input.height];
        out.push(centre(c, score, cx * sx, cy * sy, w * sx, h * sy));
      }
      return out;
    }
    case 'end2end': {
      const out: Raw[] = [];
      for (let i = 0; i < a; i++) {
        const [x1 = 0, y1 = 0, x2 = 0, y2 = 0, score = 0, c = 0] = d.subarray(i * 6, i * 6 + 6);
        if (score >= OWN_MODEL_SCORE_FLOOR && Number.isInteger(c) && c >= 0)
          out.push({ classId: c, score, x1, y1, x2, y2 });
      }
      return out;
    }
  }
}

/**
 * Class-wise NMS over boxes already sorted by score: each box meets only the kept boxes of its
 * class (thousands of candidates over 80 classes stay cheap).
 */
function classWiseNms(sorted: readonly EngineDetection[]): EngineDetection[] {
  const byClass = new Map<number, NormalisedBox[]>();
  const kept: EngineDetection[] = [];
  for (const d of sorted) {
    if (kept.length >= MAX_BOXES) break;
    const same = byClass.get(d.classId) ?? [];
    if (!same.every((b) => iou(b, d.box) <= IOU_THRESHOLD)) continue;
    same.push(d.box);
    byClass.set(d.classId, same);
    kept.push(d);
  }
  return kept;
}

export function decodeOutput(q: DecodeInput): EngineDetection[] {
  const found: EngineDetection[] = [];
  const raw = decodeRaw(q)
    .sort((x, y) => y.score - x.score)
    .slice(0, MAX_CANDIDATES);
  for (const r of raw) {
    const box = toImageBox(q.place, r.x1, r.y1, r.x2, r.y2);
    if (box.w <= 0 || box.h <= 0) continue;
    found.push({ label: labelOf(q.classes, r.classId), classId: r.classId, score: r.score, box });
  }
  const nmsDone = q.type === 'rtdetr' || q.type === 'end2end';
  return nmsDone ? found.slice(0, MAX_BOXES) : classWiseNms(found);
}
