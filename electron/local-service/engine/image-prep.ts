/** Shared tensor preparation and box helpers for the model decoders. */
import * as tf from '@tensorflow/tfjs-core';
import type { NormalisedBox, RgbImage } from './engine-types.js';

export function imageTensor(image: RgbImage): tf.Tensor3D {
  return tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
}

export interface Letterboxed {
  /** float32 [1, size, size, 3] in 0–255, image at the top-left, zero padding bottom/right. */
  input: tf.Tensor4D;
  /** Multiply a model x (0–1 of the square input) by this to get 0–1 of the image. */
  scaleX: number;
  scaleY: number;
}

/**
 * Resizes keeping the aspect ratio, then pads to a square: the models were trained on undistorted
 * objects, and stretching a wide photo into a square input visibly hurts faces and poses.
 */
export function letterbox(image: RgbImage, size: number): Letterboxed {
  const side = Math.max(image.width, image.height);
  const w = Math.max(1, Math.round((image.width * size) / side));
  const h = Math.max(1, Math.round((image.height * size) / side));
  const input = tf.tidy(() => {
    const pixels = tf.cast(imageTensor(image), 'float32');
    const resized = tf.image.resizeBilinear(pixels, [h, w]);
    const padded = tf.pad(resized, [
      [0, size - h],
      [0, size - w],
      [0, 0],
    ]);
    return tf.expandDims<tf.Tensor4D>(padded, 0);
  });
  return { input, scaleX: size / w, scaleY: size / h };
}

const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

/** Corner coordinates (0–1 of the image, possibly out of range) to a clamped top-left + size box. */
export function cornersToBox(x1: number, y1: number, x2: number, y2: number): NormalisedBox {
  const left = clamp01(Math.min(x1, x2));
  const top = clamp01(Math.min(y1, y2));
  const right = clamp01(Math.max(x1, x2));
  const bottom = clamp01(Math.max(y1, y2));
  return { x: left, y: top, w: right - left, h: bottom - top };
}

export function elapsedSince(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}
