/** Uploads that must each be refused with a clean 4xx and cost nothing. */
import { deflateSync } from 'node:zlib';
import { jpeg } from './synth-media.js';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid-looking PNG whose header claims width×height (a decompression bomb by its header). */
export function hugeHeaderPng(width = 30000, height = 30000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface BadUpload {
  name: string;
  filename: string;
  bytes: Buffer;
  status: number;
}

export async function badImageUploads(): Promise<BadUpload[]> {
  const good = await jpeg(640, 480);
  const random = Buffer.alloc(4096);
  for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
  return [
    { name: 'zero bytes', filename: 'empty.jpg', bytes: Buffer.alloc(0), status: 422 },
    {
      name: 'a truncated JPEG',
      filename: 'cut.jpg',
      bytes: good.subarray(0, Math.floor(good.length / 2)),
      status: 422,
    },
    { name: 'random bytes named .jpg', filename: 'noise.jpg', bytes: random, status: 422 },
    {
      name: 'a PNG whose header claims 30000×30000',
      filename: 'bomb.png',
      bytes: hugeHeaderPng(),
      status: 413,
    },
    {
      name: 'an SVG',
      filename: 'drawing.svg',
      bytes: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      ),
      status: 415,
    },
    {
      name: 'a text file',
      filename: 'notes.txt',
      bytes: Buffer.from('just some words, not an image\n'),
      status: 415,
    },
  ];
}
