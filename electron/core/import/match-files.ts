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
  private readonly byPath = new Map<string, MediaRecord>();
  private readonly byName = new Map<string, MediaRecord[]>();
  private readonly byStem = new Map<string, MediaRecord[]>();

  constructor(media: Iterable<MediaRecord>) {
    for (const m of media) {
      this.byPath.set(m.path, m);
      const base = baseOf(m.path);
      push(this.byName, base, m);
      push(this.byStem, stemOf(base), m);
    }
  }

  /** The file an entry names, or the issue saying why there is none. */
  match(file: ImportedFile): MediaRecord | ImportIssue {
    for (const p of file.paths) {
      const m = this.byPath.get(p);
      if (m) return m;
    }
    const base = baseOf(file.name);
    const candidates = (file.stemOnly ? this.byStem.get(base) : this.byName.get(base)) ?? [];
    if (candidates.length === 1) return candidates[0] as MediaRecord;
    const tail = `/${slashed(file.name)}`;
    const ends = (m: MediaRecord) =>
      (file.stemOnly ? stemOf(slashed(m.path)) : slashed(m.path)).endsWith(tail);
    const narrowed = candidates.filter(ends);
    if (narrowed.length === 1) return narrowed[0] as MediaRecord;
    if (candidates.length === 0) {
      const what = `${file.name}: no file of the library has this ${file.stemOnly ? 'name (any extension)' : 'name'}; its labels were not imported.`;
      return issue(file.source, 'unknown_file', what);
    }
    const shown = (narrowed.length ? narrowed : candidates).slice(0, 3).map((m) => m.path);
    const what = `${file.name}: ${candidates.length} files of the library have this name (${shown.join(', ')}${candidates.length > 3 ? ', …' : ''}); its labels were not imported.`;
    return issue(file.source, 'ambiguous_file', what);
  }
}

function push(map: Map<string, MediaRecord[]>, key: string, m: MediaRecord): void {
  const list = map.get(key);
  if (list) list.push(m);
  else map.set(key, [m]);
}
