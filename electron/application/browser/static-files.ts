/** The built renderer (out/renderer), served read-only: no path may leave that folder. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { contentTypeOf } from '../media-source.js';

const EXTRA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The file under `root` for a URL path, or undefined (missing, a folder, or outside root). */
export async function staticFile(
  root: string,
  urlPath: string,
): Promise<{ path: string; contentType: string } | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const rel = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = path.resolve(root, rel);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  const st = await stat(file).catch(() => undefined);
  if (!st?.isFile()) return undefined;
  const ext = path.extname(file).toLowerCase();
  return { path: file, contentType: EXTRA_TYPES[ext] ?? contentTypeOf(file) };
}
