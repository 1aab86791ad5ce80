/**
 * One small ONNX detector per layout LabelDesk runs (issue 27 §2), each answering known boxes
 * whatever the image, so decoding, letterboxing, NMS and class names are checked to the pixel.
 * Input 64×64; an image of 200×100 letterboxes into rows 16–48 (centred) or 0–32 (top-left).
 */
import { constantDetector } from './onnx-writer.js';

const SIZE = { width: 64, height: 64 };
/** YOLO grid cells of a 64×64 input on strides 8, 16, 32. */
export const CELLS = 64 + 16 + 4;

/** Columns of a [1, rows, n] output (YOLOv8 is transposed): column i gets `cols[i]`. */
function transposed(rows: number, n: number, cols: readonly (readonly number[])[]): number[] {
  const out = new Array<number>(rows * n).fill(0);
  cols.forEach((col, i) => col.forEach((v, r) => (out[r * n + i] = v)));
  return out;
}

function rowsOf(n: number, width: number, rows: Record<number, readonly number[]>): number[] {
  const out = new Array<number>(n * width).fill(0);
  for (const [i, row] of Object.entries(rows))
    row.forEach((v, k) => (out[Number(i) * width + k] = v));
  return out;
}

export const ownModels = {
  /** cat/dog from Ultralytics-style metadata; a same-class near duplicate NMS removes. */
  yolov8: () =>
    constantDetector(
      SIZE,
      [1, 6, CELLS],
      transposed(6, CELLS, [
        [32, 32, 32, 16, 0, 0.9],
        [33, 32, 32, 16, 0, 0.8],
        [33, 32, 32, 16, 0.6, 0],
        [10, 10, 4, 4, 0.04, 0],
      ]),
      { names: "{0: 'cat', 1: 'dog'}", imgsz: '[64, 64]', description: 'Ultralytics YOLOv8n' },
    ),
  /** Objectness × class probability; two classes on one box both stay (class-wise NMS). */
  yolov5: () =>
    constantDetector(
      SIZE,
      [1, 3 * CELLS, 7],
      rowsOf(3 * CELLS, 7, {
        0: [32, 32, 32, 16, 0.9, 0.1, 1],
        1: [32, 32, 32, 16, 0.5, 0.8, 0.2],
      }),
    ),
  /** Raw grid offsets: row 11 is stride 8's cell (3, 1), row 65 stride 16's cell (1, 0). */
  yolox: () =>
    constantDetector(
      SIZE,
      [1, CELLS, 7],
      rowsOf(CELLS, 7, {
        11: [1, 1, Math.log(4), Math.log(2), 0.9, 0.95, 0],
        65: [0.5, 0.5, 0, 0, 1, 0, 0.7],
      }),
    ),
  /** Normalised centre boxes of a stretched input, no NMS. */
  rtdetr: () =>
    constantDetector(
      SIZE,
      [1, 300, 6],
      rowsOf(300, 6, {
        0: [0.5, 0.5, 0.5, 0.5, 0.2, 0.7],
        1: [0.5, 0.5, 0.5, 0.5, 0.65, 0.1],
        2: [0.1, 0.1, 0.1, 0.1, 0.3, 0],
      }),
    ),
  /** x1, y1, x2, y2, score, class in input pixels. */
  end2end: () =>
    constantDetector(
      SIZE,
      [1, 300, 6],
      rowsOf(300, 6, { 0: [16, 24, 48, 40, 0.95, 2], 1: [0, 0, 8, 8, 0.01, 0] }),
    ),
  /** Names its constant as external data outside its folder. */
  escaping: () =>
    constantDetector(
      SIZE,
      [1, 6, CELLS],
      new Array(6 * CELLS).fill(0),
      undefined,
      '../../secret.bin',
    ),
};
