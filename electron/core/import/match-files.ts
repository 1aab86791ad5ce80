/**
 * Finds the library file a labelled entry means: by a path the labels give, then by its file name
 * (or stem, for YOLO) among the library's files, narrowed by the folders the name carries. Two or
 * more candidates left, or none, is said, never guessed.
 */
import type { MediaRecord } from '../store/store-types.js';
import { issue, type ImportedFile, type ImportIssue } from './import-model.js';

const baseOf = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
const stemOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
};
const slashed = (p: string) => p.replace(/\\/g, '/');

export class LibraryIndex {
  private readonly byPathMap = new Map<string, MediaRecord>();
  /** Every file, in the order added: the name maps are built from it, in steps if asked. */
  private readonly all: MediaRecord[] = [];
  /**
   * By name, stem and path stem, for entries their paths do not find. An export's labels all
   * match by path, and these maps were two thirds of a 100k library's index (47 of 75 MB), which
   * the thread serving the UI marked in long collections during an import: built only when an
   * entry needs them (see `byPath`, `nameSteps`).
   */
  private readonly named: NameMaps = {
    byName: new Map(),
    byStem: new Map(),
    byPathStem: new Map(),
  };
  /** How many of `all` the name maps hold. */
  private namedUpTo = 0;

  constructor(media: Iterable<MediaRecord> = []) {
    this.add(media);
  }

  /** More of the library (an import reads it a page at a time, letting the loop go between). */
  add(media: Iterable<MediaRecord>): void {
    for (const m of media) {
      this.byPathMap.set(m.path, m);
      this.all.push(m);
    }
  }

  /** The file found by the first path an entry gives that leads to one (else the name maps). */
  byPath(file: Pick<ImportedFile, 'paths'>): MediaRecord | undefined {
    for (const p of file.paths) {
      const m = this.byPathMap.get(p);
      if (m) return m;
    }
    return undefined;
  }

  /**
   * Builds the name maps `size` files at a time, yielding between steps (a caller lets its loop
   * go there: 100k files in one go held it for a few hundred ms). `match` builds what is left.
   */
  *nameSteps(size: number): Generator<void> {
    while (this.namedUpTo < this.all.length) {
      this.nameUpTo(Math.min(this.all.length, this.namedUpTo + size));
      yield;
    }
  }

  private nameUpTo(end: number): void {
    for (; this.namedUpTo < end; this.namedUpTo++)
      addName(this.named, this.all[this.namedUpTo] as MediaRecord);
  }

  private names(): NameMaps {
    this.nameUpTo(this.all.length);
    return this.named;
  }

  /** The file an entry names, or the issue saying why there is none. */
  match(file: Omit<ImportedFile, 'boxes'>): MediaRecord | ImportIssue {
    const found = this.byPath(file);
    if (found) return found;
    const { byName, byStem, byPathStem } = this.names();
    const expected = file.pathStem === undefined ? undefined : byPathStem.get(file.pathStem);
    if (expected?.length === 1) return expected[0] as MediaRecord;
    const base = baseOf(file.name);
    const candidates = (file.stemOnly ? byStem.get(base) : byName.get(base)) ?? [];
    if (candidates.length === 1) return candidates[0] as MediaRecord;
    // Several: the one sharing the most trailing folders with the name, if it alone does.
    const wanted = segments(file.name, file.stemOnly);
    const scored = candidates.map((m) => ({
      m,
      n: shared(segments(m.path, file.stemOnly), wanted),
    }));
    const best = Math.max(0, ...scored.map((c) => c.n));
    const narrowed = scored.filter((c) => c.n === best).map((c) => c.m);
    if (best > 1 && narrowed.length === 1) return narrowed[0] as MediaRecord;
    if (candidates.length === 0) {
      const what = `${file.name}: no file of the library has this ${file.stemOnly ? 'name (any extension)' : 'name'}; its labels were not imported.`;
      return issue(file.source, 'unknown_file', what);
    }
    const shown = (best > 1 ? narrowed : candidates).slice(0, 3).map((m) => m.path);
    const what = `${file.name}: ${candidates.length} files of the library have this name (${shown.join(', ')}${candidates.length > 3 ? ', …' : ''}); its labels were not imported.`;
    return issue(file.source, 'ambiguous_file', what);
  }
}

interface NameMaps {
  byName: Map<string, MediaRecord[]>;
  byStem: Map<string, MediaRecord[]>;
  byPathStem: Map<string, MediaRecord[]>;
}

function addName(maps: NameMaps, m: MediaRecord): void {
  const base = baseOf(m.path);
  push(maps.byName, base, m);
  push(maps.byStem, stemOf(base), m);
  push(maps.byPathStem, m.path.slice(0, m.path.length - base.length) + stemOf(base), m);
}

/** Path segments, the last without its extension when matching by stem. */
function segments(path: string, stemOnly: boolean): string[] {
  const parts = slashed(path).split('/');
  if (stemOnly) parts[parts.length - 1] = stemOf(parts[parts.length - 1] ?? '');
  return parts;
}

/** How many trailing segments two paths have in common. */
function shared(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

function push(map: Map<string, MediaRecord[]>, key: string, m: MediaRecord): void {
  const list = map.get(key);
  if (list) list.push(m);
  else map.set(key, [m]);
}
