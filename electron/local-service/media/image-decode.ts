/**
 * Turns an uploaded image into the packed RGB the models read, in one sharp pipeline.
 *
 * Refusals, in the order they are decided:
 *  - 422 undecodable_media: empty, or the first bytes are no image signature we know (text,
 *    random bytes, a video…). Rule: 415 only when we can name the format and it is not accepted;
 *    anything we cannot name is "undecodable", so the same bytes always get the same answer.
 *  - 415 unsupported_media_type: a known image format that is not in `limits.formats` (svg, bmp,
 *    pdf…). Decided from the signature alone, so SVG is never parsed, let alone rendered.
 *  - 413 image_too_large: the header's width×height exceeds maxPixels, before any pixel decode.
 *  - 422 undecodable_media: sharp cannot read the header or the pixels (a truncated file, a
 *    signature that lies).
 */
import sharp, { type FormatEnum, type Metadata, type OutputInfo } from 'sharp';
import { messageOf } from '../../shared/error-message.js';
import type { RgbImage } from '../engine/engine-types.js';
import { tooLarge, undecodableMedia, unsupportedMedia } from '../http/api-error.js';
import { analysedSize } from './analysed-size.js';
import { sniffImageFormat } from './image-sniff.js';

export interface ImageLimits {
  maxPixels: number;
  maxAnalysedSide: number;
  formats: readonly string[];
}

export interface DecodedImage {
  /** Pixels at the analysed resolution. */
  rgb: RgbImage;
  /** The file's own size, after EXIF orientation. */
  width: number;
  height: number;
  analysedWidth: number;
  analysedHeight: number;
  /** As sharp names it, except AVIF which is reported as 'avif' rather than 'heif'. */
  format: string;
  /** EXIF orientation, 1 when absent. */
  orientation: number;
}

/** sharp's input format needed for each format we may accept. */
const SHARP_INPUT: Record<string, keyof FormatEnum> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  tiff: 'tiff',
  avif: 'heif',
};

/**
 * The formats we accept: those this build of sharp decodes from a buffer. BMP is absent because
 * sharp's prebuilt libvips has no ImageMagick loader; HEIC because it carries no HEVC decoder.
 */
export const IMAGE_FORMATS: readonly string[] = Object.entries(SHARP_INPUT)
  .filter(([, input]) => sharp.format[input]?.input.buffer)
  .map(([name]) => name);

// Transparent areas become white, as a viewer shows them on a page.
const FLATTEN_BACKGROUND = { r: 255, g: 255, b: 255 };

// Every upload is decoded once: libvips' operation cache only costs memory and time here.
sharp.cache(false);

export async function decodeImage(input: Buffer, limits: ImageLimits): Promise<DecodedImage> {
  if (input.length === 0) throw undecodableMedia('The file is empty.');
  const sniffed = sniffImageFormat(input);
  if (!sniffed) throw undecodableMedia('The file is not an image in any format we recognise.');
  if (!limits.formats.includes(sniffed)) {
    throw unsupportedMedia(
      sniffed === 'text'
        ? `This is a text file, not an image; send one of: ${limits.formats.join(', ')}.`
        : `${sniffed.toUpperCase()} images are not accepted; send one of: ${limits.formats.join(', ')}.`,
    );
  }

  // 'truncated' refuses cut-off files that would otherwise decode half grey, yet still accepts
  // the harmless warnings (stray bytes after EOI) common in camera JPEGs.
  const pipeline = sharp(input, { failOn: 'truncated', limitInputPixels: limits.maxPixels });
  let meta: Metadata;
  try {
    meta = await pipeline.metadata(); // header only: no pixels decoded yet
  } catch (err) {
    // sharp applies limitInputPixels to the header too, and says so only in its message.
    if (/pixel limit/i.test(messageOf(err))) throw imageTooLarge(limits.maxPixels);
    throw undecodableMedia(`The ${sniffed} image cannot be read: ${messageOf(err)}`);
  }
  const format = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
  if (format !== sniffed) {
    throw undecodableMedia(`The file looks like ${sniffed} but decodes as ${String(format)}.`);
  }
  if (meta.width * meta.height > limits.maxPixels) {
    throw imageTooLarge(limits.maxPixels, `${meta.width}×${meta.height}`);
  }

  const { width, height } = meta.autoOrient;
  const analysed = analysedSize(width, height, limits.maxAnalysedSide);
  pipeline.autoOrient();
  if (analysed.width !== width || analysed.height !== height) {
    pipeline.resize(analysed.width, analysed.height, { fit: 'fill' });
  }
  // sRGB + 8-bit raw gives exactly 3 bytes per pixel for grey, CMYK and 16-bit inputs alike.
  pipeline
    .flatten({ background: FLATTEN_BACKGROUND })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' });

  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await pipeline.toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw undecodableMedia(`The ${format} image cannot be decoded: ${messageOf(err)}`);
  }
  if (out.info.channels !== 3) {
    throw undecodableMedia(`The ${format} image decoded to ${out.info.channels} channels.`);
  }
  return {
    rgb: { data: out.data, width: out.info.width, height: out.info.height },
    width,
    height,
    analysedWidth: out.info.width,
    analysedHeight: out.info.height,
    format,
    orientation: meta.orientation ?? 1,
  };
}

function imageTooLarge(maxPixels: number, size?: string) {
  const what = size ? `The image is ${size} pixels` : 'The image has too many pixels';
  return tooLarge('image_too_large', `${what}; the limit is ${maxPixels} pixels.`);
}
