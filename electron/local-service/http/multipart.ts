/** Streaming multipart reading with the published limits enforced while the bytes arrive. */
import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { ApiError, badRequest, tooLarge } from './api-error.js';

export interface UploadOptions {
  maxFileBytes: number;
  /** Called as each text field arrives (before the file when the client sends fields first); may throw. */
  onField?: (name: string, value: string) => void;
  /** Where the file goes: kept in memory, or streamed to this path. */
  toPath?: string;
  /** Message for the 413, e.g. "Images may be at most 20 MiB." */
  tooLargeMessage: string;
}

export interface Upload {
  fields: Record<string, string>;
  filename: string;
  mimeType: string;
  size: number;
  /** Set when kept in memory. */
  buffer?: Buffer;
}

const MULTIPART_OVERHEAD = 64 * 1024;

export function readUpload(req: IncomingMessage, options: UploadOptions): Promise<Upload> {
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.reject(
      badRequest(
        'expected_multipart',
        'Send multipart/form-data with the fields solution and file.',
      ),
    );
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > options.maxFileBytes + MULTIPART_OVERHEAD) {
    return Promise.reject(tooLarge('file_too_large', options.tooLargeMessage));
  }
  return new Promise<Upload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: 8, fieldSize: 4096, fileSize: options.maxFileBytes, parts: 10 },
      });
    } catch {
      reject(badRequest('malformed_multipart', 'The multipart body could not be parsed.'));
      return;
    }
    const fields: Record<string, string> = {};
    let fileDone: Promise<Omit<Upload, 'fields'>> | undefined;
    let fileStream: (NodeJS.ReadableStream & { destroy(): void }) | undefined;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      parser.removeAllListeners('close');
      // Ending the file stream closes a half-written upload before it is removed.
      fileStream?.destroy();
      const path = options.toPath;
      if (!path) return reject(err);
      // The caller learns of the failure only once the partial upload is gone from disk.
      const remove = () => unlink(path).catch(() => undefined);
      void (fileDone ? fileDone.then(remove, remove) : remove()).then(() => reject(err));
    };
    parser.on('field', (name, value) => {
      fields[name] = value;
      try {
        options.onField?.(name, value);
      } catch (err) {
        fail(err);
      }
    });
    parser.on('file', (name, stream, info) => {
      // After a failure the parser may still emit parts it had buffered: discard them.
      if (failed || name !== 'file' || fileDone) {
        stream.resume();
        return;
      }
      fileStream = stream;
      let size = 0;
      stream.on('data', (chunk: Buffer) => (size += chunk.length));
      stream.on('limit', () => fail(tooLarge('file_too_large', options.tooLargeMessage)));
      const meta = { filename: info.filename ?? '', mimeType: info.mimeType };
      if (options.toPath) {
        fileDone = pipeline(stream, createWriteStream(options.toPath)).then(() => ({
          ...meta,
          size,
        }));
      } else {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        fileDone = new Promise((done, broke) => {
          stream.on('end', () => done({ ...meta, size, buffer: Buffer.concat(chunks, size) }));
          stream.on('error', broke);
        });
      }
      fileDone.catch(fail);
    });
    parser.on('filesLimit', () => fail(badRequest('too_many_files', 'Send exactly one file.')));
    parser.on('error', () =>
      fail(badRequest('malformed_multipart', 'The multipart body could not be parsed.')),
    );
    parser.on('close', () => {
      if (failed) return;
      if (!fileDone) {
        fail(badRequest('missing_file', 'The multipart field "file" is missing.'));
        return;
      }
      fileDone.then((file) => {
        if (!failed) resolve({ fields, ...file });
      }, fail);
    });
    req.on('aborted', () =>
      fail(new ApiError(400, 'upload_aborted', 'The upload was interrupted.')),
    );
    req.pipe(parser);
  });
}
