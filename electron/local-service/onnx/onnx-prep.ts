/**
 * Packed RGB pixels to an own model's NCHW float input: resized (bilinear, pixel centres as
 * OpenCV's INTER_LINEAR) by the type's recipe, and the placement needed to map boxes back.
 */
import type { NormalisedBox, RgbImage } from '../engine/engine-types.js';
import { cornersToBox } from '../engine/image-prep.js';
import type { InputRecipe } from './onnx-types.js';

/** Where the image sits inside the model's input, in input pixels. */
export interface Placement {
  left: number;
  top: number;
  /** The image's size once resized, in input pixels. */
  width: number;
  height: number;
}

/** Ultralytics' and YOLOX's padding grey. */
const PAD = 114;

export function placement(
  image: { width: number; height: number },
  input: { width: number; height: number },
  resize: InputRecipe['resize'],
): Placement {
  if (resize === 'stretch') return { left: 0, top: 0, width: input.width, height: input.height };
  const r = Math.min(input.width / image.width, input.height / image.height);
  const width = Math.max(1, Math.round(image.width * r));
  const height = Math.max(1, Math.round(image.height * r));
  if (resize === 'letterbox-top-left') return { left: 0, top: 0, width, height };
  return {
    left: Math.floor((input.width - width) / 2),
    top: Math.floor((input.height - height) / 2),
    width,
    height,
  };
}

export function prepareInput(
  image: RgbImage,
  input: { width: number; height: number },
  recipe: InputRecipe,
): { data: Float32Array; place: Placement } {
  const place = placement(image, input, recipe.resize);
  const plane = input.width * input.height;
  const data = new Float32Array(3 * plane).fill(PAD / recipe.divisor);
  // Output plane of each source channel (R, G, B): BGR models take them reversed.
  const [p0, p1, p2] = (recipe.channels === 'rgb' ? [0, 1, 2] : [2, 1, 0]).map(
    (c) => c * plane,
  ) as [number, number, number];
  const k = 1 / recipe.divisor;
  // Per output column: the two source columns (byte offsets) and the weight of the right one.
  const sx = image.width / place.width;
  const xa = new Int32Array(place.width);
  const xb = new Int32Array(place.width);
  const xw = new Float32Array(place.width);
  for (let x = 0; x < place.width; x++) {
    const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), image.width - 1);
    const x0 = Math.floor(fx);
    xa[x] = x0 * 3;
    xb[x] = Math.min(x0 + 1, image.width - 1) * 3;
    xw[x] = fx - x0;
  }
  const sy = image.height / place.height;
  const src = image.data;
  const rowBytes = image.width * 3;
  for (let y = 0; y < place.height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), image.height - 1);
    const y0 = Math.floor(fy);
    const top = y0 * rowBytes;
    const bottom = Math.min(y0 + 1, image.height - 1) * rowBytes;
    const wy = fy - y0;
    const out = (place.top + y) * input.width + place.left;
    for (let x = 0; x < place.width; x++) {
      const a = top + (xa[x] as number);
      const b = top + (xb[x] as number);
      const c = bottom + (xa[x] as number);
      const e = bottom + (xb[x] as number);
      const wx = xw[x] as number;
      const w00 = (1 - wx) * (1 - wy);
      const w01 = wx * (1 - wy);
      const w10 = (1 - wx) * wy;
      const w11 = wx * wy;
      const o = out + x;
      data[p0 + o] =
        ((src[a] as number) * w00 +
          (src[b] as number) * w01 +
          (src[c] as number) * w10 +
          (src[e] as number) * w11) *
        k;
      data[p1 + o] =
        ((src[a + 1] as number) * w00 +
          (src[b + 1] as number) * w01 +
          (src[c + 1] as number) * w10 +
          (src[e + 1] as number) * w11) *
        k;
      data[p2 + o] =
        ((src[a + 2] as number) * w00 +
          (src[b + 2] as number) * w01 +
          (src[c + 2] as number) * w10 +
          (src[e + 2] as number) * w11) *
        k;
    }
  }
  return { data, place };
}

/** Corners in input pixels to a box normalised to the image, clamped to it. */
export function toImageBox(
  place: Placement,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): NormalisedBox {
  const nx = (x: number) => (x - place.left) / place.width;
  const ny = (y: number) => (y - place.top) / place.height;
  return cornersToBox(nx(x1), ny(y1), nx(x2), ny(y2));
}
