/**
 * A YOLO dataset's description: `data.yaml` (Ultralytics; also `config.yaml`) read with the `yaml`
 * library — `names` as a list or an id → name map, `path` (the dataset's root) and the `train`,
 * `val` and `test` image folders — or else `classes.txt` (one name per line).
 */
import { parse } from 'yaml';

export interface DatasetYaml {
  /** Names by class id; undefined when the file has no readable `names`. */
  names: Map<number, string> | undefined;
  /** The dataset's root as written (relative to the YAML's folder, or absolute); null when absent. */
  path: string | null;
  /** The image folders (or image lists) of its splits, as written. */
  splits: string[];
}

/** A YAML file of a few hundred names is a few KB; anything far larger is not a dataset file. */
const MAX_YAML_CHARS = 4 * 1024 * 1024;

/** The dataset a YAML text describes; undefined when it is not YAML or not a mapping. */
export function readDatasetYaml(text: string): DatasetYaml | undefined {
  if (text.length > MAX_YAML_CHARS) return undefined;
  let doc: unknown;
  try {
    // Aliases are capped: a label file is untrusted input (no "billion laughs").
    doc = parse(text, { maxAliasCount: 100 });
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const d = doc as Record<string, unknown>;
  const splits: string[] = [];
  for (const key of ['train', 'val', 'test']) {
    const v = d[key];
    for (const s of Array.isArray(v) ? v : [v])
      if (typeof s === 'string' && s !== '') splits.push(s);
  }
  return {
    names: namesOf(d['names']),
    path: typeof d['path'] === 'string' && d['path'] !== '' ? d['path'] : null,
    splits,
  };
}

/** Names by class id from a data.yaml text; undefined when it has no readable `names`. */
export function namesFromYaml(text: string): Map<number, string> | undefined {
  return readDatasetYaml(text)?.names;
}

function namesOf(value: unknown): Map<number, string> | undefined {
  const names = new Map<number, string>();
  const named = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      const n = named(v);
      if (n !== null) names.set(i, n);
    });
    return names;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const id = Number(k);
      const n = named(v);
      if (Number.isInteger(id) && id >= 0 && n !== null) names.set(id, n);
    }
    return names;
  }
  return undefined;
}

export function namesFromClassesTxt(text: string): Map<number, string> {
  const names = new Map<number, string>();
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l, i, all) => l !== '' || i < all.length - 1)
    .forEach((l, i) => names.set(i, l));
  return names;
}
