/**
 * The ONNX detector layouts the embedded service runs (issue 27 §2), what each expects as input and
 * what its first output looks like. Facts from the exporters: Ultralytics letterboxes centred with
 * grey (114) padding, RGB scaled to 0–1, NCHW; its RT-DETR stretches; YOLOX pads at the top-left
 * and takes BGR 0–255.
 */
export const ONNX_TYPES = ['yolov5', 'yolov8', 'yolo11', 'yolox', 'rtdetr', 'end2end'] as const;
export type OnnxType = (typeof ONNX_TYPES)[number];

/** The lowest score an own model's answer keeps (published as its scoreFloor). */
export const OWN_MODEL_SCORE_FLOOR = 0.05;

export type ResizeMode = 'letterbox' | 'letterbox-top-left' | 'stretch';

export interface InputRecipe {
  resize: ResizeMode;
  channels: 'rgb' | 'bgr';
  /** Pixel values are divided by this (255: 0–1; 1: 0–255). */
  divisor: number;
}

export function inputRecipe(type: OnnxType): InputRecipe {
  if (type === 'yolox') return { resize: 'letterbox-top-left', channels: 'bgr', divisor: 1 };
  if (type === 'rtdetr') return { resize: 'stretch', channels: 'rgb', divisor: 255 };
  return { resize: 'letterbox', channels: 'rgb', divisor: 255 };
}

/** YOLOX and YOLOv5 predict on these strides; v5 has three anchors per cell. */
const STRIDES = [8, 16, 32];
export const gridCells = (w: number, h: number): number =>
  STRIDES.reduce((n, s) => n + Math.ceil(w / s) * Math.ceil(h / s), 0);

/**
 * The number of classes the output carries under a type, or a sentence saying why the output
 * cannot be that type. `dims` is the first output's shape with the batch of 1.
 */
export function classesInOutput(type: OnnxType, dims: readonly number[]): number | string {
  const shape = `[${dims.join(', ')}]`;
  if (dims.length !== 3 || dims[0] !== 1)
    return `its first output is ${shape}, not [1, rows, columns]`;
  const [, a = 0, b = 0] = dims;
  switch (type) {
    case 'yolov8':
    case 'yolo11':
      return a >= 5 && b > a ? a - 4 : `${type} gives [1, 4 + classes, boxes]; this gives ${shape}`;
    case 'yolov5':
    case 'yolox':
      return b >= 6 && a > b ? b - 5 : `${type} gives [1, boxes, 5 + classes]; this gives ${shape}`;
    case 'rtdetr':
      return b >= 5 && a > 0
        ? b - 4
        : `rtdetr gives [1, queries, 4 + classes]; this gives ${shape}`;
    case 'end2end':
      return b === 6 ? 0 : `end2end gives [1, boxes, 6]; this gives ${shape}`;
  }
}

/** The type an output's shape points to, with the reason (said back to the person). */
export function inferType(
  dims: readonly number[],
  input: { width: number; height: number },
  hint: string,
): { type: OnnxType; why: string } | undefined {
  if (dims.length !== 3 || dims[0] !== 1) return undefined;
  const [, a = 0, b = 0] = dims;
  const cells = gridCells(input.width, input.height);
  const said = (type: OnnxType, why: string) => ({
    type,
    why: `${why} (output [${dims.join(', ')}])`,
  });
  if (/rt-?detr/i.test(hint) && b >= 5) return said('rtdetr', 'the metadata names RT-DETR');
  if (b === 6 && a !== cells && a !== 3 * cells)
    return said('end2end', 'six columns: x1, y1, x2, y2, score, class');
  if (a >= 5 && b > a) return said('yolov8', 'one column per box, 4 + classes rows');
  if (a === 3 * cells && b >= 6) return said('yolov5', 'three anchors per grid cell');
  if (a === cells && b >= 6) return said('yolox', 'one row per grid cell, with objectness');
  if (b >= 5 && a <= 1000) return said('rtdetr', 'a few hundred queries, 4 + classes columns');
  return undefined;
}
