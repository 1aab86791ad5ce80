import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/local-service/http/api-error.js';
import {
  decodeImage,
  IMAGE_FORMATS,
} from '../../../../electron/local-service/media/image-decode.js';
import { noisyImage, pngHeaderOnly, solidImage } from './media-fixtures.js';

const limits = { maxPixels: 50_000_000, maxAnalysedSide: 512, formats: IMAGE_FORMATS };

async function refusal(
  input: Buffer,
  lim = limits,
): Promise<{ status: number; code: string; message: string }> {
  const err: unknown = await decodeImage(input, lim).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const { status, code, message } = err as ApiError;
  return { status, code, message };
}

describe('IMAGE_FORMATS', () => {
  it('lists what this sharp build decodes, and never svg', () => {
    expect(IMAGE_FORMATS).toEqual(
      expect.arrayContaining(['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif']),
    );
    expect(IMAGE_FORMATS).not.toContain('svg');
  });
});

describe('decodeImage', () => {
  it.each(['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif'] as const)(
    'decodes %s to packed RGB',
    async (fmt) => {
      const input = await solidImage(300, 200).toFormat(fmt).toBuffer();
      const img = await decodeImage(input, limits);
      expect(img).toMatchObject({
        format: fmt,
        width: 300,
        height: 200,
        analysedWidth: 300,
        analysedHeight: 200,
      });
      expect(img.rgb.data.length).toBe(300 * 200 * 3);
    },
  );

  it('downscales to fit maxAnalysedSide, keeping the aspect ratio', async () => {
    const img = await decodeImage(await solidImage(2000, 1000).jpeg().toBuffer(), limits);
    expect(img).toMatchObject({
      width: 2000,
      height: 1000,
      analysedWidth: 512,
      analysedHeight: 256,
    });
    expect(img.rgb).toMatchObject({ width: 512, height: 256 });
    expect(img.rgb.data.length).toBe(512 * 256 * 3);
  });

  it('applies EXIF orientation 6: width and height swap', async () => {
    const input = await noisyImage(400, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const img = await decodeImage(input, limits);
    expect(img).toMatchObject({
      orientation: 6,
      width: 100,
      height: 400,
      analysedWidth: 100,
      analysedHeight: 400,
    });
  });

  it('flattens alpha and expands greyscale to 3 channels', async () => {
    const rgba = await sharp({
      create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const flat = await decodeImage(rgba, limits);
    expect(flat.rgb.data.length).toBe(8 * 8 * 3);
    expect(flat.rgb.data[0]).toBe(255); // transparent → white
    const grey = await noisyImage(10, 10).greyscale().png().toBuffer();
    expect((await decodeImage(grey, limits)).rgb.data.length).toBe(10 * 10 * 3);
  });

  it('refuses a 30000×30000 header with 413 before decoding pixels', async () => {
    const bomb = pngHeaderOnly(30_000, 30_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(30_000);
    const started = performance.now();
    expect(await refusal(bomb)).toMatchObject({ status: 413, code: 'image_too_large' });
    // Decoding 900 million pixels would take far longer (or run out of memory).
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses SVG by its signature with 415 naming the accepted formats', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
    );
    const r = await refusal(svg);
    expect(r).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(r.message).toMatch(/SVG/);
    expect(r.message).toContain(IMAGE_FORMATS.join(', '));
  });

  it('refuses a known format left out of limits.formats with 415', async () => {
    const png = await noisyImage(4, 4).png().toBuffer();
    expect(await refusal(png, { ...limits, formats: ['jpeg'] })).toMatchObject({ status: 415 });
    const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]);
    expect(await refusal(bmp)).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it.each([
    ['zero bytes', Buffer.alloc(0)],
    ['random bytes', randomBytes(4096)],
  ])('refuses %s with 422', async (_name, input) => {
    expect(await refusal(input)).toMatchObject({ status: 422, code: 'undecodable_media' });
  });

  it('refuses a text file with 415, saying it is text', async () => {
    const r = await refusal(Buffer.from('name,width\nphoto,640\n'));
    expect(r).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(r.message).toMatch(/text file/);
  });

  it('refuses a truncated JPEG and a truncated PNG with 422', async () => {
    const jpeg = await noisyImage(640, 480).jpeg().toBuffer();
    const png = await noisyImage(640, 480).png().toBuffer();
    for (const cut of [jpeg.subarray(0, jpeg.length >> 1), png.subarray(0, png.length >> 1)]) {
      expect(await refusal(cut)).toMatchObject({ status: 422, code: 'undecodable_media' });
    }
  });

  it('refuses a signature that lies (JPEG magic, garbage after) with 422', async () => {
    const liar = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2000)]);
    expect(await refusal(liar)).toMatchObject({ status: 422, code: 'undecodable_media' });
  });
});
