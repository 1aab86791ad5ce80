/**
 * The per-file work of a library read pass, as plain data in and out so that it can run in a
 * worker thread: each file is read once, hashed, and its header parsed from the same bytes when
 * the fast parser can (probe-media.ts decides the rest on the main thread).
 */
import type { MediaKind } from '../store/store-types.js';
import { CHUNK, hashError, readFileHashedSync, readSmallFileSync } from './hash-file.js';
import type { FileError } from './media-types.js';
import { probeFromBytes, type ProbeResult } from './probe-media.js';

export interface FileToRead {
  path: string;
  kind: MediaKind;
}

export type FileRead =
  | {
      ok: true;
      hash: string;
      size: number;
      mtimeMs: number;
      /** `dev:ino` of the file read (its fstat): a scan that left the stat to the read needs it. */
      fileId: string;
      probe: ProbeResult | undefined;
    }
  | { ok: false; error: FileError };

/** One buffer per thread: a pass over 100k files allocates nothing per file. */
let buffer: Buffer | undefined;

/** Reads with synchronous calls: for a worker thread (or a test without a build). */
export function readFiles(files: readonly FileToRead[]): FileRead[] {
  buffer ??= Buffer.allocUnsafe(CHUNK);
  return files.map((f) => {
    try {
      const r = readFileHashedSync(f.path, buffer as Buffer);
      // Parsed before the buffer is reused: the bytes are a view of it.
      const probe = r.bytes && probeFromBytes(f.path, f.kind, r.bytes);
      return { ok: true, hash: r.hash, size: r.size, mtimeMs: r.mtimeMs, fileId: r.fileId, probe };
    } catch (err) {
      return { ok: false, error: hashError(f.path, err).error };
    }
  });
}

/**
 * `readFiles` for one file of at most `buffer.length` bytes, on this thread; undefined, having read
 * nothing, for a larger one (left to a worker). The same result and errors as `readFiles`.
 */
export function readFileIfSmall(f: FileToRead, buffer: Buffer): FileRead | undefined {
  try {
    const r = readSmallFileSync(f.path, buffer);
    if (!r) return undefined;
    const probe = probeFromBytes(f.path, f.kind, r.bytes);
    return { ok: true, hash: r.hash, size: r.size, mtimeMs: r.mtimeMs, fileId: r.fileId, probe };
  } catch (err) {
    return { ok: false, error: hashError(f.path, err).error };
  }
}
