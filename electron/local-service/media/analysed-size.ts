/** The resolution the models see: shared by the image and the video paths so both agree. */

export interface Size {
  width: number;
  height: number;
}

/**
 * Fits `width`×`height` inside a `maxSide` square, keeping the aspect ratio and never enlarging.
 * A downscaled size is rounded to even numbers (at least 2) because video scalers want them;
 * a size that already fits is returned unchanged so that nothing is resampled for nothing.
 */
export function analysedSize(width: number, height: number, maxSide: number): Size {
  if (!(width > 0 && height > 0 && maxSide >= 2)) {
    throw new RangeError(`analysedSize: bad arguments ${width}x${height} max ${maxSide}`);
  }
  const scale = maxSide / Math.max(width, height);
  if (scale >= 1) return { width, height };
  const even = (n: number) => {
    const e = Math.max(2, 2 * Math.round(n / 2));
    return e > maxSide ? e - 2 : e;
  };
  return { width: even(width * scale), height: even(height * scale) };
}
