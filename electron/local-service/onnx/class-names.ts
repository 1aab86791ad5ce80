/**
 * Class names of an own model: from its metadata (Ultralytics writes `names` as a Python dict,
 * `{0: 'person', 1: 'bicycle'}`), else from a --names file (a YAML list, a YAML map of index to
 * name, an Ultralytics data YAML with `names:`, or a text file of one name a line), else `class N`.
 */
import { parse as parseYaml } from 'yaml';

export type NamesFrom = 'metadata' | 'names file' | 'class numbers';

/** Parses Ultralytics' `names` metadata; undefined when it is not that shape. */
export function namesFromMetadata(value: string | undefined): string[] | undefined {
  if (!value) return undefined;
  const found = new Map<number, string>();
  for (const m of value.matchAll(/(\d+)\s*:\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g)) {
    found.set(Number(m[1]), (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1'));
  }
  return fromIndexMap(found);
}

function fromIndexMap(found: Map<number, string>): string[] | undefined {
  if (found.size === 0) return undefined;
  const names: string[] = [];
  for (let i = 0; i < found.size; i++) {
    const name = found.get(i);
    if (name === undefined) return undefined; // Gaps: not a list of classes 0…N-1.
    names.push(name);
  }
  return names;
}

function fromYaml(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? value : undefined;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if ('names' in obj) return fromYaml(obj['names']);
    const found = new Map<number, string>();
    for (const [k, v] of Object.entries(obj)) {
      if (!/^\d+$/.test(k) || typeof v !== 'string') return undefined;
      found.set(Number(k), v);
    }
    return fromIndexMap(found);
  }
  return undefined;
}

/** A --names file's classes; throws a sentence when it holds none. */
export function namesFromFile(text: string): string[] {
  let yaml: unknown;
  try {
    yaml = parseYaml(text);
  } catch {
    yaml = undefined;
  }
  const names =
    fromYaml(yaml) ??
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
  if (names.length === 0) throw new Error('the names file lists no class');
  const bad = names.find((n) => n.length > 200);
  if (bad !== undefined) throw new Error('a class name in the names file is over 200 characters');
  return names;
}

export const numberedClasses = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `class ${i}`);
