/**
 * Each labelled file's library file, found as the label batches arrive from the reading thread
 * once the library is indexed: by a path the file gives (an export's labels all are), the others
 * at the end, by name (the name maps are built only if one needs them). At 100k COCO files,
 * matching them all after the last batch was 0.3-0.5 s before the first write.
 */
import type { HeldFile } from '../core/import/held-file.js';
import { issue, type ImportIssue } from '../core/import/import-model.js';
import type { LibraryIndex } from '../core/import/match-files.js';
import type { MediaRecord } from '../core/store/store-types.js';
import { letLoopGo, PAGE } from './import-library-read.js';

/** A labelled file, where the source lists it (the `at`-th), and the library file it names. */
export interface Matched {
  at: number;
  /** Its boxes parsed only when it is planned (see HeldFile). */
  file: HeldFile;
  media: MediaRecord;
}

/** Issues of files, kept with where the source lists them: they are told in the source's order. */
export type FileIssues = { at: number; issue: ImportIssue }[];

interface Arrived {
  at: number;
  file: HeldFile;
}

export class ArrivingMatches {
  private index: LibraryIndex | undefined;
  /** Files that came before the index was ready, in the labels' order. */
  private readonly waiting: Arrived[] = [];
  private arrivals = 0;
  private readonly byPath: Matched[] = [];
  private readonly rest: Arrived[] = [];

  /** A batch of files read, in the labels' order. */
  arrived(files: readonly HeldFile[]): void {
    for (const file of files) {
      const at = this.arrivals++;
      if (this.index) this.place(this.index, at, file);
      else this.waiting.push({ at, file });
    }
  }

  /** The library is indexed: what waited is matched in pages, what comes next as it comes. */
  async indexed(index: LibraryIndex, signal: AbortSignal | undefined): Promise<void> {
    // Batches arriving between pages join the end of the queue, so places stay in order.
    for (let i = 0; i < this.waiting.length; i++) {
      if (i > 0 && i % PAGE === 0) await letLoopGo(signal);
      const { at, file } = this.waiting[i] as Arrived;
      this.place(index, at, file);
    }
    this.waiting.length = 0;
    this.index = index;
  }

  /**
   * Every file's match, the first entry of a library file winning, in the library's own order
   * (media ids follow the scan, and analysis followed it): a batch then reads and rewrites
   * neighbouring rows, where the labels' order (a COCO's path order across cameras) would dirty
   * every page of the model's boxes in many transactions (3.4 s of 1M mirror rewrites, 0.5 s in
   * order). The order of the writes changes nothing else: each file's plan is its own.
   */
  async all(
    index: LibraryIndex,
    issues: FileIssues,
    signal: AbortSignal | undefined,
  ): Promise<Matched[]> {
    if (!this.index) await this.indexed(index, signal);
    const byName: Matched[] = [];
    if (this.rest.length > 0) for (const _ of index.nameSteps(PAGE)) await letLoopGo(signal);
    for (const [i, { at, file }] of this.rest.entries()) {
      if (i > 0 && i % PAGE === 0) await letLoopGo(signal);
      const media = index.match(file);
      if ('code' in media) issues.push({ at, issue: media });
      else byName.push({ at, file, media });
    }
    const seen = new Map<number, string>();
    const work: Matched[] = [];
    for (const m of inOrder(this.byPath, byName)) {
      const { at, file, media } = m;
      const first = seen.get(media.id);
      if (first !== undefined) {
        const what = `${media.path}: ${file.source} labels the same file as ${first}; only the first was imported.`;
        issues.push({ at, issue: issue(file.source, 'duplicate_entry', what, media.path) });
        continue;
      }
      seen.set(media.id, file.source);
      work.push(m);
    }
    return work.sort((a, b) => a.media.id - b.media.id);
  }

  private place(index: LibraryIndex, at: number, file: HeldFile): void {
    const media = index.byPath(file);
    if (media) this.byPath.push({ at, file, media });
    else this.rest.push({ at, file });
  }
}

/** Two lists ordered by `at`, as one. */
function* inOrder(a: readonly Matched[], b: readonly Matched[]): Generator<Matched> {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x && (!y || x.at < y.at)) {
      yield x;
      i++;
    } else if (y) {
      yield y;
      j++;
    }
  }
}
