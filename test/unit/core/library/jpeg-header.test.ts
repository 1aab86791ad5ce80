import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJpegHeader } from '../../../../electron/core/library/jpeg-header.js';
import { probeMedia } from '../../../../electron/core/library/probe-media.js';
import { SlicedFs } from '../../../../electron/core/library/scan-fs.js';
import { realMediaDir } from '../../../support/real-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await tempDir('labeldesk-jpeg-header-')));
afterAll(() => remove());

const pixels = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 40 } } });

/** What sharp says, in the probe's terms. */
async function sharpSays(bytes: Buffer) {
  const m = await sharp(bytes).metadata();
  const orientation = m.orientation && m.orientation >= 1 && m.orientation <= 8 ? m.orientation : 1;
  return { width: m.width, height: m.height, orientation };
}

/** The orientation entry of the first EXIF block, rewritten to `value` in place. */
function patchOrientation(jpeg: Buffer, value: number): Buffer {
  const out = Buffer.from(jpeg);
  const exif = out.indexOf('Exif\0\0', 0, 'latin1') + 6;
  const le = out.toString('latin1', exif, exif + 2) === 'II';
  const ifd = exif + (le ? out.readUInt32LE(exif + 4) : out.readUInt32BE(exif + 4));
  const count = le ? out.readUInt16LE(ifd) : out.readUInt16BE(ifd);
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + 12 * i;
    if ((le ? out.readUInt16LE(e) : out.readUInt16BE(e)) !== 0x0112) continue;
    if (le) out.writeUInt16LE(value, e + 8);
    else out.writeUInt16BE(value, e + 8);
    return out;
  }
  throw new Error('no orientation entry');
}

describe('parseJpegHeader', () => {
  it('reads what sharp reads from plain JPEGs: sizes, grey, progressive, 4:4:4, all orientations', async () => {
    const cases: Buffer[] = [
      await pixels(1, 1).jpeg().toBuffer(),
      await pixels(333, 77).jpeg().toBuffer(),
      await pixels(64, 48).toColourspace('b-w').jpeg().toBuffer(),
      await pixels(120, 90).greyscale().jpeg().toBuffer(),
      await pixels(200, 100).jpeg({ progressive: true }).toBuffer(),
      await pixels(50, 60).jpeg({ chromaSubsampling: '4:4:4' }).toBuffer(),
      await pixels(70, 30).jpeg({ mozjpeg: true }).toBuffer(),
      await pixels(80, 40).jpeg().withMetadata().toBuffer(),
    ];
    for (let o = 1; o <= 8; o++) {
      cases.push(await pixels(40, 20).jpeg().withMetadata({ orientation: o }).toBuffer());
    }
    for (const bytes of cases) {
      const parsed = parseJpegHeader(bytes);
      expect(parsed).toBeDefined();
      expect(parsed).toEqual(await sharpSays(bytes));
    }
  });

  it('agrees with sharp on every real photo it reads, and reads the plain ones', async () => {
    const media = await realMediaDir();
    const photos = (await readdir(media)).filter((f) => /\.jpe?g$/i.test(f));
    expect(photos.length).toBeGreaterThan(0);
    let read = 0;
    for (const name of photos) {
      const bytes = await readFile(path.join(media, name));
      const parsed = parseJpegHeader(bytes.subarray(0, 64 * 1024));
      if (!parsed) continue;
      read++;
      expect({ name, ...parsed }).toEqual({ name, ...(await sharpSays(bytes)) });
    }
    expect(read).toBeGreaterThan(photos.length / 2);
  });

  it('leaves everything else to sharp', async () => {
    const plain = await pixels(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const sos = plain.indexOf(Buffer.from([0xff, 0xda]));
    expect(parseJpegHeader(plain.subarray(0, sos))).toBeUndefined(); // no scan in the bytes
    expect(parseJpegHeader(await pixels(4, 4).png().toBuffer())).toBeUndefined();
    expect(parseJpegHeader(Buffer.from('not an image'))).toBeUndefined();
    expect(parseJpegHeader(Buffer.alloc(0))).toBeUndefined();
    expect(parseJpegHeader(patchOrientation(plain, 9))).toBeUndefined();
    expect(parseJpegHeader(patchOrientation(plain, 0))).toBeUndefined();
    // Stray bytes between two segments: libjpeg warns, sharp may refuse; not ours to judge.
    const stray = Buffer.concat([plain.subarray(0, 2), Buffer.from([0x00]), plain.subarray(2)]);
    expect(parseJpegHeader(stray)).toBeUndefined();
    // A second EXIF block.
    const app1 = plain.indexOf(Buffer.from([0xff, 0xe1]));
    const len = plain.readUInt16BE(app1 + 2);
    const twice = Buffer.concat([
      plain.subarray(0, app1 + 2 + len),
      plain.subarray(app1, app1 + 2 + len),
      plain.subarray(app1 + 2 + len),
    ]);
    expect(parseJpegHeader(twice)).toBeUndefined();
    // Lossless (SOF3) and 12-bit frames.
    const sof = plain.indexOf(Buffer.from([0xff, 0xc0]));
    const sof3 = Buffer.from(plain);
    sof3[sof + 1] = 0xc3;
    expect(parseJpegHeader(sof3)).toBeUndefined();
    const twelve = Buffer.from(plain);
    twelve[sof + 4] = 12;
    expect(parseJpegHeader(twelve)).toBeUndefined();
  });
});

describe('probeMedia on JPEGs', () => {
  it('answers as sharp does, with or without a fast-disk policy, and keeps its error codes', async () => {
    const rotated = path.join(dir, 'rotated.jpg');
    await pixels(40, 20).jpeg().withMetadata({ orientation: 6 }).toFile(rotated);
    const png = path.join(dir, 'really-a-png.jpg');
    await pixels(30, 10).png().toFile(png);
    const fake = path.join(dir, 'fake.jpeg');
    await writeFile(fake, 'not an image');
    const fs = new SlicedFs();
    for (const options of [{}, { fs }]) {
      expect(await probeMedia(rotated, 'image', options)).toEqual({
        ok: true,
        info: {
          width: 40,
          height: 20,
          orientation: 6,
          format: 'jpeg',
          durationMs: null,
          fps: null,
          rotation: 0,
        },
      });
      expect(await probeMedia(png, 'image', options)).toMatchObject({
        ok: true,
        info: { width: 30, height: 10, format: 'png' },
      });
      expect(await probeMedia(fake, 'image', options)).toMatchObject({
        ok: false,
        code: 'undecodable_media',
      });
      expect(await probeMedia(path.join(dir, 'gone.jpg'), 'image', options)).toMatchObject({
        ok: false,
        code: 'not_found',
      });
    }
  });
});
