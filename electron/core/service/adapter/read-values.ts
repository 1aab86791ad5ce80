/** Small readers of untyped JSON: cheap (no allocation on the hot path) and never throwing. */

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function numberOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A number, or a numeric string ("12.5"): some services quote their numbers. */
export function looseNumberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function stringOf(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A string, or a number shown as one (a version `2`, an id `17`). */
export function textOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** The first of `names` present (not undefined/null) in `obj`, with the name it was found under. */
export function firstPresent(
  obj: Json,
  names: readonly string[],
): { name: string; value: unknown } | null {
  for (const name of names) {
    const value = obj[name];
    if (value !== undefined && value !== null) return { name, value };
  }
  return null;
}

/** `max_image_bytes`, `maxImageBytes`, `MAX-IMAGE-BYTES` → `maximagebytes`. */
export function squashName(name: string): string {
  return name.replace(/[_\-\s]/g, '').toLowerCase();
}

/** An object's keys by their squashed name (for lists of alternative names). */
export function squashedKeys(obj: Json): Map<string, string> {
  const keys = new Map<string, string>();
  for (const key of Object.keys(obj)) keys.set(squashName(key), key);
  return keys;
}

/** The first of the squashed `names` that `obj` holds as a number (or numeric string). */
export function numberByName(
  obj: Json,
  keys: Map<string, string>,
  names: readonly string[],
): number | null {
  for (const name of names) {
    const key = keys.get(name);
    const v = key === undefined ? null : looseNumberOf(obj[key]);
    if (v !== null) return v;
  }
  return null;
}
