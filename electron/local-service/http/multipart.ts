/** Streaming multipart reading with the published limits enforced while the bytes arrive. */
import busboy from 'busboy';
import { createWriteStream, type WriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
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
const LIMITS = { files: 1, fields: 8, fieldSize: 4096, parts: 10 } as const;
const malformed = () =>
  badRequest('malformed_multipart', 'The multipart body could not be parsed.');

/**
 * Reads one upload. Always settles: on any failure (bad structure, limits, client abort, the
 * response closing) the partial file is removed from disk before the promise rejects.
 */
export function readUpload(
  req: IncomingMessage,
  res: ServerResponse,
  options: UploadOptions,
): Promise<Upload> {
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
        limits: { ...LIMITS, fileSize: options.maxFileBytes },
      });
    } catch {
      reject(badRequest('malformed_multipart', 'The multipart header has no usable boundary.'));
      return;
    }
    const fields: Record<string, string> = {};
    let fileDone: Promise<Omit<Upload, 'fields'>> | undefined;
    let fileStream: Readable | undefined;
    /** Settles once the file on disk is closed: only then may it be removed. */
    let diskClosed: Promise<void> | undefined;
    let disk: WriteStream | undefined;
    let settled = false;
    const detach = () => {
      req.unpipe(parser);
      req.off('aborted', onAborted);
      res.off('close', onResponseClosed);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      detach();
      parser.removeAllListeners('close');
      // Destroy with an error: a file stream destroyed without one after its last byte leaves
      // pipeline() waiting forever for the disk stream to finish.
      fileStream?.destroy(err instanceof Error ? err : new Error(String(err)));
      disk?.destroy();
      const path = options.toPath;
      if (!path) return reject(err);
      // The caller learns of the failure only once the partial upload is gone from disk. pipeline()
      // may settle before the disk stream has even opened its file, so wait for the stream's close.
      const remove = () => unlink(path).catch(() => undefined);
      void (diskClosed ?? Promise.resolve()).then(remove).then(() => reject(err));
    };
    const onAborted = () =>
      fail(new ApiError(400, 'upload_aborted', 'The upload was interrupted.'));
    // Whatever ends the exchange (timeout, destroyed socket) ends the upload too.
    const onResponseClosed = () => onAborted();

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) {
        fail(
          badRequest(
            'field_too_large',
            `Form fields may be at most ${LIMITS.fieldSize} bytes; "${name.slice(0, 40)}" is longer.`,
          ),
        );
        return;
      }
      fields[name] = value;
      try {
        options.onField?.(name, value);
      } catch (err) {
        fail(err);
      }
    });
    parser.on('file', (name, stream, info) => {
      // After a failure the parser may still emit parts it had buffered: discard them.
      if (settled) {
        stream.resume();
        return;
      }
      if (name !== 'file') {
        stream.resume();
        fail(badRequest('unexpected_file_field', 'Only the field "file" may carry a file.'));
        return;
      }
      fileStream = stream;
      let size = 0;
      stream.on('data', (chunk: Buffer) => (size += chunk.length));
      stream.on('limit', () => fail(tooLarge('file_too_large', options.tooLargeMessage)));
      const meta = { filename: info.filename ?? '', mimeType: info.mimeType };
      if (options.toPath) {
        const out = createWriteStream(options.toPath);
        disk = out;
        diskClosed = new Promise((closed) => out.once('close', () => closed()));
        fileDone = pipeline(stream, out).then(() => ({ ...meta, size }));
      } else {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        fileDone = new Promise((done, broke) => {
          stream.on('end', () => done({ ...meta, size, buffer: Buffer.concat(chunks, size) }));
          stream.on('error', broke);
          stream.on('close', () => broke(new Error('file stream closed early')));
        });
      }
      // The parser breaks the file stream itself when the body ends mid-part: a malformed body.
      fileDone.catch((err: unknown) => fail(err instanceof ApiError ? err : malformed()));
    });
    parser.on('filesLimit', () =>
      fail(badRequest('too_many_files', 'Send exactly one file, in the field "file".')),
    );
    parser.on('fieldsLimit', () =>
      fail(badRequest('too_many_fields', `Send at most ${LIMITS.fields} form fields.`)),
    );
    parser.on('partsLimit', () =>
      fail(badRequest('too_many_parts', `Send at most ${LIMITS.parts} multipart parts.`)),
    );
    parser.on('error', () => fail(malformed()));
    parser.on('close', () => {
      if (settled) return;
      if (!fileDone) {
        fail(badRequest('missing_file', 'The multipart field "file" is missing.'));
        return;
      }
      fileDone.then(
        (file) => {
          if (settled) return;
          settled = true;
          detach();
          resolve({ fields, ...file });
        },
        (err: unknown) => fail(err instanceof ApiError ? err : malformed()),
      );
    });
    req.once('aborted', onAborted);
    res.once('close', onResponseClosed);
    req.pipe(parser);
  });
}
