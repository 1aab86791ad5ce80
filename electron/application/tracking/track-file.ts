/**
 * The model's tracks of an analysis kept on disk (in the work home), so a clip opened in a new
 * process is not tracked again: a small binary file per analysis (`<result>-<createdAt>.tracks`),
 * a JSON header with the fingerprint of the model's boxes, then their detection ids (Float64) and
 * track ranks (Int32). A file whose fingerprint no longer matches the rows is simply not used
 * (the review service looks tracks up by the fingerprint of the rows it read).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelTracks } from '../../core/tracking/model-tracks.js';

const fileOf = (dir: string, key: string) => join(dir, `${key.replace(':', '-')}.tracks`);

export function readTrackFile(dir: string, key: string): ModelTracks | undefined {
  try {
    const bytes = readFileSync(fileOf(dir, key));
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + headerLength)) as {
      fingerprint: string;
      count: number;
    };
    // Aligned copies: typed arrays cannot view a Buffer at any offset.
    const start = 4 + headerLength;
    const ids = new Float64Array(
      bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + header.count * 8),
    );
    const rankStart = start + header.count * 8;
    const ranks = new Int32Array(
      bytes.buffer.slice(
        bytes.byteOffset + rankStart,
        bytes.byteOffset + rankStart + header.count * 4,
      ),
    );
    const rankOf = new Map<number, number>();
    ranks.forEach((r, i) => r > 0 && rankOf.set(ids[i] as number, r));
    return { fingerprint: header.fingerprint, rankOf };
  } catch {
    return undefined;
  }
}

/** Writes the file (replacing those of earlier analyses of the same result); never throws. */
export function writeTrackFile(
  dir: string,
  key: string,
  fingerprint: string,
  ids: Float64Array,
  ranks: Int32Array,
): void {
  try {
    mkdirSync(dir, { recursive: true });
    const resultId = key.split(':')[0] as string;
    for (const f of readdirSync(dir))
      if (f.startsWith(`${resultId}-`)) rmSync(join(dir, f), { force: true });
    const header = Buffer.from(JSON.stringify({ fingerprint, count: ids.length }));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length);
    writeFileSync(
      fileOf(dir, key),
      Buffer.concat([
        length,
        header,
        Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength),
        Buffer.from(ranks.buffer, ranks.byteOffset, ranks.byteLength),
      ]),
    );
  } catch {
    // A cache: a read-only or full disk only means tracking again next time.
  }
}
