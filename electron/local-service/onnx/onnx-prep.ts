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
  const order = recipe.channels === 'rgb' ? [0, 1, 2] : [2, 1, 0];
  const sx = image.width / place.width;
  const sy = image.height / place.height;
  const src = image.data;
  const rowBytes = image.width * 3;
  for (let y = 0; y < place.height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), image.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, image.height - 1);
    const wy = fy - y0;
    const out = (place.top + y) * input.width + place.left;
    for (let x = 0; x < place.width; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), image.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, image.width - 1);
      const wx = fx - x0;
      const a = y0 * rowBytes + x0 * 3;
      const b = y0 * rowBytes + x1 * 3;
      const c = y1 * rowBytes + x0 * 3;
      const d = y1 * rowBytes + x1 * 3;
      for (let ch = 0; ch < 3; ch++) {
        const top = (src[a + ch] ?? 0) * (1 - wx) + (src[b + ch] ?? 0) * wx;
        const bottom = (src[c + ch] ?? 0) * (1 - wx) + (src[d + ch] ?? 0) * wx;
        data[(order[ch] ?? ch) * plane + out + x] = (top * (1 - wy) + bottom * wy) / recipe.divisor;
      }
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
