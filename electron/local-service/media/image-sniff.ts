/**
 * Names an image format from its first bytes, before any decoder sees the buffer. Only buffers
 * whose signature is an accepted format reach sharp, so SVG (an XML renderer with its own attack
 * surface), PDF and friends are refused without ever being parsed.
 */

/** Format names as sharp reports them, except AVIF, which sharp calls 'heif'. */
export type SniffedFormat =
  | 'jpeg'
  | 'png'
  | 'webp'
  | 'gif'
  | 'tiff'
  | 'avif'
  | 'heif'
  | 'bmp'
  | 'jp2'
  | 'jxl'
  | 'pdf'
  | 'svg'
  | 'psd'
  | 'ico'
  | 'text';

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

const ascii = (buf: Buffer, start: number, end: number) => buf.toString('latin1', start, end);

export function sniffImageFormat(buf: Buffer): SniffedFormat | undefined {
  const b = buf;
  if (b.length < 4) return undefined;
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.readUInt32BE(0) === 0x89504e47) return 'png';
  if (ascii(b, 0, 4) === 'GIF8') return 'gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*') return 'tiff';
  if (ascii(b, 0, 2) === 'BM') return 'bmp';
  if (ascii(b, 0, 4) === '%PDF') return 'pdf';
  if (ascii(b, 0, 4) === '8BPS') return 'psd';
  if (b.readUInt32BE(0) === 0x00000100) return 'ico';
  if (b[0] === 0xff && b[1] === 0x0a) return 'jxl';
  if (ascii(b, 4, 8) === 'ftyp') return isoBrand(b);
  if (ascii(b, 4, 12) === 'jP  \r\n\x87\n' || ascii(b, 0, 4) === '\xff\x4f\xff\x51') return 'jp2';
  if (ascii(b, 4, 12) === 'JXL \r\n\x87\n') return 'jxl';
  if (looksLikeSvg(b)) return 'svg';
  if (looksLikeText(b)) return 'text';
  return undefined;
}

/** Plain text (a note, CSV, JSON, a log) is a format we can name, so it is refused as unsupported. */
function looksLikeText(b: Buffer): boolean {
  const head = b.subarray(0, 1024);
  if (head.includes(0)) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  let printable = 0;
  for (const ch of text)
    if (ch === '\n' || ch === '\r' || ch === '\t' || (ch >= ' ' && ch !== '\ufffd')) printable++;
  return printable / Math.max(1, text.length) > 0.95;
}

/** ISO-BMFF (HEIF family): the major brand, or a compatible one, says AVIF or HEIF. */
function isoBrand(b: Buffer): SniffedFormat | undefined {
  const boxEnd = Math.min(b.readUInt32BE(0), b.length, 256);
  const brands = [ascii(b, 8, 12)];
  for (let i = 16; i + 4 <= boxEnd; i += 4) brands.push(ascii(b, i, i + 4));
  if (brands.some((x) => AVIF_BRANDS.has(x))) return 'avif';
  if (brands.some((x) => HEIF_BRANDS.has(x))) return 'heif';
  return undefined; // an MP4/MOV video, not a still image
}

/**
 * Only used to name the refusal (415 rather than 422); safety does not depend on it, since
 * anything not sniffed as an accepted format never reaches a decoder.
 */
function looksLikeSvg(b: Buffer): boolean {
  const head = ascii(b, 0, 1024).replace(/^\xef\xbb\xbf/, '');
  return /^\s*</.test(head) && /<svg[\s>]/i.test(head);
}
