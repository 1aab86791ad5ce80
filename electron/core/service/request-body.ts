/**
 * Request bodies as chunk generators that count what they hand to the connection.
 *
 * Why: a POST whose body was delivered in full may have been processed (and charged) even if its
 * answer is lost, while one cut off mid-body cannot have been. `progress.complete` turns true the
 * moment the LAST chunk is handed over (before it is even written to the socket), so it errs on
 * the side of "uncertain", never on the side of a blind resend. The multipart closing boundary
 * travels in that last chunk, so no server can see a complete upload before `complete` is set.
 *
 * Files are read chunk by chunk as the transport asks (it waits for the socket to drain), so memory
 * stays at a chunk or two whatever the clip size; Content-Length is computed up front.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { SlicedFs } from '../library/scan-fs.js';
import { UploadSourceError } from './service-errors.js';

const CHUNK_BYTES = 256 * 1024;

/**
 * The stat and the read of a small upload (one chunk: a photo) are synchronous while the disk is
 * fast, under the scan's policy (scan-fs.ts): four promise round trips cost ~0.3 ms of CPU per
 * upload, as much as the rest of the client, on a machine the service shares; synchronously they
 * cost ~20 µs. Once calls are slow (a network share) everything is asynchronous for good.
 */
const uploadFs = new SlicedFs();

export interface BodyProgress {
  bytesSent: number;
  total: number;
  /** Every byte has been handed to fetch: from now on the service may hold the whole request. */
  complete: boolean;
  /** Set when reading the local file failed (not a network problem; resending will not help). */
  sourceError?: Error;
}

export interface TrackedBody {
  /** Pulled by the transport one chunk at a time; counts into `progress`. */
  chunks: AsyncGenerator<Uint8Array>;
  contentType: string;
  length: number;
  progress: BodyProgress;
  /** Closes the file if the transport gave up before the last chunk. */
  dispose(): Promise<void>;
}

/** Uploaded file: a path (streamed from disk) or bytes already in memory. */
export type UploadFile = string | Uint8Array;

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.avi': 'video/x-msvideo',
  '.mkv': 'video/x-matroska',
};

function tracked(
  length: number,
  contentType: string,
  source: AsyncGenerator<Uint8Array>,
  onChunk: () => void,
): TrackedBody {
  const progress: BodyProgress = { bytesSent: 0, total: length, complete: false };
  async function* counted(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of source) {
        progress.bytesSent += chunk.byteLength;
        if (progress.bytesSent >= length) progress.complete = true;
        onChunk();
        yield chunk;
      }
    } catch (err) {
      progress.sourceError = err instanceof Error ? err : new Error(String(err));
      throw progress.sourceError;
    }
  }
  const chunks = counted();
  return {
    chunks,
    contentType,
    length,
    progress,
    dispose: async () => {
      await chunks.return(undefined).catch(() => undefined);
      await source.return(undefined).catch(() => undefined);
    },
  };
}

async function* sliced(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) {
    yield bytes.subarray(at, at + CHUNK_BYTES);
  }
}

/** Exactly `size` bytes of the file: a file that shrinks mid-upload fails instead of hanging. */
async function* fileChunks(path: string, size: number): AsyncGenerator<Uint8Array> {
  if (size > 0 && size <= CHUNK_BYTES && uploadFs.synchronous) {
    // The same reads as below, synchronously: one chunk, read when the transport asks for it.
    yield await uploadFs.run(
      () => smallFileSync(path, size),
      () => smallFile(path, size),
    );
    return;
  }
  yield* fileChunksAsync(path, size);
}

async function* fileChunksAsync(path: string, size: number): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    for (let at = 0; at < size;) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - at));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) throw new UploadSourceError(`${path} shrank while it was uploaded`);
      at += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

function smallFileSync(path: string, size: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size);
    for (let at = 0; at < size;) {
      const bytesRead = readSync(fd, buffer, at, size - at, at);
      if (bytesRead === 0) throw new UploadSourceError(`${path} shrank while it was uploaded`);
      at += bytesRead;
    }
    return buffer;
  } finally {
    closeSync(fd);
  }
}

/** smallFileSync once the disk turned slow between the check and the call. */
async function smallFile(path: string, size: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of fileChunksAsync(path, size)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A JSON body, tracked like uploads so that a lost answer to POST /session is caught as well. */
export function jsonBody(value: unknown, onChunk: () => void): TrackedBody {
  const bytes = Buffer.from(JSON.stringify(value));
  return tracked(bytes.byteLength, 'application/json', sliced(bytes), onChunk);
}

/**
 * Quoted-string escaping for form-data names, as browsers do it: `"`, CR and LF become %22, %0D
 * and %0A (the HTML standard's rule). The other control characters (a tab, ESC, NUL…) are
 * percent-encoded the same way: raw, they are not allowed in a header and the upload is refused
 * as malformed. The name is only a label; the service never uses it as a path.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is escaped
const FILENAME_UNSAFE = /["\u0000-\u001f\u007f]/g;

export const quotedFilename = (name: string) =>
  name.replace(
    FILENAME_UNSAFE,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );

/**
 * Boundaries: 96 random bits drawn once per process, then a counter (distinct per body, and of
 * one length, so every upload's framing has the same size as before). As
 * unguessable for the file's bytes as fresh random bytes per body, which cost a random-number
 * call per upload (a visible share of the client's time per photo).
 */
const BOUNDARY_PREFIX = randomBytes(12).toString('hex');
let boundaries = 0;

/**
 * multipart/form-data with `solution` first, then `file`: the service checks the solution (and the
 * credits it costs) before it reads the upload, so a refusal comes before the bytes are sent.
 */
export async function multipartBody(
  solution: string,
  file: UploadFile,
  onChunk: () => void,
  filename?: string,
): Promise<TrackedBody> {
  let size: number;
  let name: string;
  if (typeof file === 'string') {
    try {
      const info = await uploadFs.run(
        () => statSync(file),
        () => stat(file),
      );
      if (!info.isFile()) throw new Error('not a regular file');
      size = info.size;
    } catch (err) {
      throw new UploadSourceError(`Cannot upload ${file}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    name = filename ?? basename(file);
  } else {
    size = file.byteLength;
    name = filename ?? 'upload';
  }
  const type = CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
  const boundary = `----LabelDesk${BOUNDARY_PREFIX}${(boundaries++ % 2 ** 32).toString(16).padStart(8, '0')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="solution"\r\n\r\n${solution}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quotedFilename(name)}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = typeof file === 'string' ? fileChunks(file, size) : sliced(file);
  async function* parts(): AsyncGenerator<Uint8Array> {
    yield head;
    yield* body;
    yield tail;
  }
  return tracked(
    head.byteLength + size + tail.byteLength,
    `multipart/form-data; boundary=${boundary}`,
    parts(),
    onChunk,
  );
}
