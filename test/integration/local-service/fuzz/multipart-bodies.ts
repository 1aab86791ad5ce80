/** Multipart bodies, well-formed and not: two files, many fields, nesting, truncation, huge fields. */
import type { Credentials } from './fuzz-cases.js';
import { int, pick, randomBytes, type Rng } from './fuzz-rng.js';

function part(boundary: string, name: string, value: Buffer | string, filename?: string): Buffer {
  const disposition = `form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`;
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
    Buffer.isBuffer(value) ? value : Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
}

export function multipartBody(
  rng: Rng,
  creds: Credentials,
  boundary: string,
): { body: Buffer; label: string } {
  const file = pick(rng, [creds.image, randomBytes(rng, int(rng, 0, 5000)), Buffer.alloc(0)]);
  const solution = part(boundary, 'solution', pick(rng, ['objects', 'face', 'nope', '']));
  const end = Buffer.from(`--${boundary}--\r\n`);
  const theFile = part(boundary, 'file', file, 'a.jpg');
  const inner = `in${boundary}`;
  const nestedHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: multipart/mixed; boundary=${inner}\r\n\r\n`;
  const whole = Buffer.concat([solution, theFile, end]);
  // Each structure as its list of parts; only the chosen one is kept.
  const structures: Record<string, () => Buffer[]> = {
    valid: () => [solution, theFile, end],
    'two files': () => [solution, theFile, part(boundary, 'file', file, 'b.jpg'), end],
    'many fields': () => [
      solution,
      ...Array.from({ length: int(rng, 9, 400) }, (_, i) => part(boundary, `f${i}`, 'v')),
      theFile,
      end,
    ],
    truncated: () => [whole.subarray(0, int(rng, 1, whole.length - 1))],
    nested: () => [
      solution,
      Buffer.from(nestedHead),
      part(inner, 'file', file, 'x.jpg'),
      Buffer.from(`--${inner}--\r\n\r\n`),
      end,
    ],
    'other file': () => [solution, part(boundary, 'other', file, 'o.jpg'), theFile, end],
    'huge field': () => [
      part(boundary, 'solution', 'o'.repeat(int(rng, 4097, 40_000))),
      theFile,
      end,
    ],
    'file first': () => [theFile, solution, end],
    'no parts': () => [end],
    'no end': () => [solution, theFile],
  };
  const label = pick(rng, Object.keys(structures));
  return { label, body: Buffer.concat(structures[label]!()) };
}
