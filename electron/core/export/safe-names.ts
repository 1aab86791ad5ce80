/**
 * Output file names derived from media paths. Media paths come from the user's disks (and, for
 * imported libraries, from anywhere), so a name must never carry a separator, `..`, a control
 * character or a Windows device name; and two files with the same base name in different folders
 * must get different, deterministic names.
 */
import { createHash } from 'node:crypto';
import { resolve, sep } from 'node:path';

// Device names Windows refuses whatever the extension (CON.txt is still CON).
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
// Characters Windows forbids, every separator, and C0/C1 controls (NUL included).
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f]/g;
// Keeps room for a hash suffix and an extension under the common 255-byte NAME_MAX.
const MAX_STEM_BYTES = 180;

/** The last path segment whatever the separator style, since records may come from Windows. */
export function baseName(mediaPath: string): string {
  const parts = mediaPath.split(/[/\\]/);
  return parts[parts.length - 1] ?? '';
}

/** The base name without its last extension (`a.b.jpg` → `a.b`; `.hidden` stays `.hidden`). */
export function stemOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** A stem safe as a single file-name segment on Linux, macOS and Windows. */
export function sanitiseStem(stem: string): string {
  let s = stem.normalize('NFC').replace(FORBIDDEN, '_');
  // Windows drops trailing dots and spaces, which would make `a.` and `a` the same file.
  s = s.replace(/[. ]+$/, '');
  // A leading dot would hide the file (and `..` must never survive as a name).
  s = s.replace(/^\.+/, (dots) => '_'.repeat(dots.length));
  if (s === '') s = '_';
  if (RESERVED.test(s.split('.')[0] ?? '')) s = `_${s}`;
  return truncateUtf8(s, MAX_STEM_BYTES);
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * Hands out unique names inside one output folder. The first file with a given stem keeps it
 * (so YOLO/VOC tools can still match labels to images by stem); later ones get an 8-hex hash of
 * their full path, which is stable across runs for the same library. Comparison ignores case
 * because macOS and Windows file systems do.
 */
export class NameAllocator {
  private readonly used = new Set<string>();

  constructor(reserved: readonly string[] = []) {
    for (const r of reserved) this.used.add(r.toLowerCase());
  }

  allocate(mediaPath: string, extension: string): string {
    const stem = sanitiseStem(stemOf(baseName(mediaPath)));
    let name = `${stem}${extension}`;
    if (this.used.has(name.toLowerCase())) name = `${stem}-${shortHash(mediaPath)}${extension}`;
    // Only reachable if another stem happened to end in this very hash: count up, still deterministic.
    for (let n = 2; this.used.has(name.toLowerCase()); n++) {
      name = `${stem}-${shortHash(mediaPath)}-${n}${extension}`;
    }
    this.used.add(name.toLowerCase());
    return name;
  }
}

/** Joins a generated name onto `dir`, refusing anything that would land outside it. */
export function insideDir(dir: string, name: string): string {
  const root = resolve(dir);
  const full = resolve(root, name);
  if (!full.startsWith(root + sep)) throw new Error(`refusing to write outside ${root}: ${name}`);
  return full;
}

function truncateUtf8(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  let out = '';
  let bytes = 0;
  // Iterating by code point so a surrogate pair is never split in half.
  for (const ch of s) {
    const b = Buffer.byteLength(ch);
    if (bytes + b > maxBytes) break;
    out += ch;
    bytes += b;
  }
  return out;
}
