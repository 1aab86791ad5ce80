/** Decodes a test picture to the packed RGB the detection engines take. */
import path from 'node:path';
import sharp from 'sharp';
import type { RgbImage } from '../../electron/local-service/engine/engine-types.js';

export interface CropRegion {
  left: number;
  top: number;
  width: number;
  height: number;
}

export async function loadRgb(dir: string, file: string, crop?: CropRegion): Promise<RgbImage> {
  let pipeline = sharp(path.join(dir, file)).rotate();
  if (crop) pipeline = pipeline.extract(crop);
  const { data, info } = await pipeline
    .resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb') // some samples (basketball1.png) are greyscale
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`${file}: expected 3 channels, got ${info.channels}`);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}
