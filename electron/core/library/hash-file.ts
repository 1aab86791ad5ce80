/**
 * Content hashes (SHA-256 hex) for dedupe: two files with the same bytes share one analysis.
 * Reads with a reused 1 MiB buffer straight from the file handle: no stream machinery or per-chunk
 * allocation, so the digest, not the plumbing, sets the speed (bench: ≥ 80 % of raw crypto).
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { type FileError, fsError } from './media-types.js';
import { SlicedFs } from './scan-fs.js';
import { fileIdOf } from './stat-later.js';

export const CHUNK = 1024 * 1024;

export interface HashedFile {
  path: string;
  hash: string;
  /** Size and mtime of the file as it was hashed (fstat of the open handle). */
  size: number;
  mtimeMs: number;
}

export type HashResult = HashedFile | { path: string; error: FileError };

/** SHA-256 of a file's bytes, with the stat of the very file that was read. Throws on fs errors. */
export async function hashFile(
  file: string,
  buffer = Buffer.allocUnsafe(CHUNK),
): Promise<HashedFile> {
  const { path, hash, size, mtimeMs } = await readFileHashed(file, buffer);
  return { path, hash, size, mtimeMs };
}

/**
 * `hashFile` that also hands back the file's bytes (a view of `buffer`, valid until it is reused)
 * when the whole file fit in `buffer`: one read then serves both the hash and a header parse.
 */
export async function readFileHashed(
  file: string,
  buffer: Buffer,
): Promise<HashedFile & { bytes?: Buffer }> {
  const fh = await open(file, 'r');
  try {
    const st = await fh.stat();
    const hash = createHash('sha256');
    // Reads fill the buffer, then start over at its beginning: the same reads as one at offset 0
    // (1 MiB each from a local file), and a file of up to one buffer ends up whole in it.
    let filled = 0;
    let total = 0;
    for (;;) {
      if (filled === buffer.length) filled = 0;
      const { bytesRead } = await fh.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(filled, filled + bytesRead));
      filled += bytesRead;
      total += bytesRead;
    }
    const after = await fh.stat();
    // Being written while read: the digest matches no version of the file.
    if (after.size !== st.size || after.mtimeMs !== st.mtimeMs) {
      throw Object.assign(new Error('The file changed while it was hashed.'), { code: 'ECHANGED' });
    }
    return {
      path: file,
      hash: hash.digest('hex'),
      size: st.size,
      mtimeMs: st.mtimeMs,
      ...(total <= buffer.length ? { bytes: buffer.subarray(0, total) } : {}),
    };
  } finally {
    await fh.close();
  }
}

/**
 * `hashFile` with synchronous calls, for a file that fits in `buffer` (one read); undefined, having
 * read nothing, for a larger one. The same checks, the same result, the same errors.
 */
export function hashSmallFileSync(file: string, buffer: Buffer): HashedFile | undefined {
  const read = readSmallFileSync(file, buffer);
  return read && { path: read.path, hash: read.hash, size: read.size, mtimeMs: read.mtimeMs };
}

/**
 * `hashSmallFileSync` that also hands back the bytes it hashed (`bytes`, a view of `buffer`, valid
 * until the buffer is reused), so one read serves both the hash and a header parse.
 */
export function readSmallFileSync(
  file: string,
  buffer: Buffer,
): (HashedFile & { bytes: Buffer; fileId: string }) | undefined {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    if (st.size > buffer.length) return undefined;
    const hash = createHash('sha256');
    // Reads append, so the whole file is in `buffer` at the end; growth past it ends the loop
    // (a zero-length read) and fails the stat check below. Once the size stat'ed is read, the
    // read that would answer 0 is skipped: the file growing meanwhile fails the same check.
    let total = 0;
    while (total < st.size || st.size === 0) {
      const bytesRead = readSync(fd, buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(total, total + bytesRead));
      total += bytesRead;
    }
    const after = fstatSync(fd);
    if (after.size !== st.size || after.mtimeMs !== st.mtimeMs) {
      throw Object.assign(new Error('The file changed while it was hashed.'), { code: 'ECHANGED' });
    }
    return {
      path: file,
      hash: hash.digest('hex'),
      size: st.size,
      mtimeMs: st.mtimeMs,
      bytes: buffer.subarray(0, total),
      fileId: fileIdOf(st),
    };
  } finally {
    closeSync(fd);
  }
}

/** A hashing failure as a per-file value: `changed_while_reading`, or the fs error's code. */
export function hashError(file: string, err: unknown): { path: string; error: FileError } {
  return (err as NodeJS.ErrnoException).code === 'ECHANGED'
    ? { path: file, error: { code: 'changed_while_reading', message: (err as Error).message } }
    : { path: file, error: fsError(err, 'The file') };
}

/**
 * Hashes many files with at most `concurrency` open at once; a failure is a per-file value.
 * Results arrive through `onResult` in completion order and are also returned in input order.
 *
 * Files of up to one buffer (photos, mostly) are hashed with synchronous calls in short slices
 * while the disk is fast, like the scan (scan-fs.ts): a promise call costs ~25-40 µs of round
 * trip, and a small file needs six of them (open, stat, read, read, stat, close), which made
 * hashing 100k small photos take 35-50 s against ~2 s synchronously on the 2-core bench machine.
 * Larger files, and every file once calls are slow, take the asynchronous path.
 */
export async function hashMany(
  files: readonly string[],
  options: {
    concurrency?: number;
    onResult?: (result: HashResult) => void;
    /** 'auto' (default): small files synchronously while fast; 'async': never block the loop. */
    mode?: 'auto' | 'async';
  } = {},
): Promise<HashResult[]> {
  const results: HashResult[] = new Array(files.length);
  const sliced = new SlicedFs(options.mode ?? 'auto');
  let next = 0;
  const worker = async () => {
    // One buffer per worker: hashing 100k files allocates nothing per file.
    const buffer = Buffer.allocUnsafe(CHUNK);
    while (next < files.length) {
      const i = next++;
      const file = files[i] as string;
      let result: HashResult;
      try {
        const small = sliced.synchronous
          ? await sliced.run(
              () => hashSmallFileSync(file, buffer),
              async () => undefined,
            )
          : undefined;
        result = small ?? (await hashFile(file, buffer));
      } catch (err) {
        result = hashError(file, err);
      }
      results[i] = result;
      options.onResult?.(result);
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? 4, files.length));
  await Promise.all(Array.from({ length: n }, worker));
  return results;
}

/**
 * `readFileHashed` with synchronous calls, for a thread that may block (the read pool's workers):
 * any size; `bytes` only when the whole file fit in `buffer`. The same checks and errors.
 */
export function readFileHashedSync(
  file: string,
  buffer: Buffer,
): HashedFile & { bytes?: Buffer; fileId: string } {
  const small = readSmallFileSync(file, buffer);
  if (small) return small;
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    const hash = createHash('sha256');
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    const after = fstatSync(fd);
    if (after.size !== st.size || after.mtimeMs !== st.mtimeMs) {
      throw Object.assign(new Error('The file changed while it was hashed.'), { code: 'ECHANGED' });
    }
    const hashed = { path: file, hash: hash.digest('hex'), size: st.size, mtimeMs: st.mtimeMs };
    return { ...hashed, fileId: fileIdOf(st) };
  } finally {
    closeSync(fd);
  }
}
