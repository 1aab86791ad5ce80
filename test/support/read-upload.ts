/** The fields and the file of a multipart upload, as a test service reads them (busboy). */
import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';

export function readUpload(
  req: IncomingMessage,
): Promise<{ fields: Record<string, string>; file?: Buffer }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let sawFile = false;
    const bb = busboy({ headers: req.headers });
    bb.on('field', (name, value) => (fields[name] = value));
    bb.on('file', (_name, stream) => {
      sawFile = true;
      stream.on('data', (d: Buffer) => chunks.push(d));
    });
    bb.on('close', () => resolve({ fields, ...(sawFile ? { file: Buffer.concat(chunks) } : {}) }));
    bb.on('error', reject);
    req.pipe(bb);
  });
}
