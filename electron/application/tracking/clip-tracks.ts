/**
 * The model's tracks of a clip, made ready before a review call reads it: the tracker's thread
 * reads the analysis on its own connection and tracks it, once per analysis (even when several
 * calls ask at once), and the answer is cached by the fingerprint of the model's boxes. Review
 * calls then find it there and only lay people's edits over it. Should the thread fail, a call
 * computes the tracks itself (slower, never wrong).
 */
import { ModelTrackCache } from '../../core/tracking/model-track-cache.js';
import type { MediaReader, ResultsReader, StoreFile } from '../../core/store/store-ports.js';
import { readTrackFile, writeTrackFile } from './track-file.js';
import { TrackWorker } from './track-worker.js';

export class ClipTracks {
  readonly cache = new ModelTrackCache();
  /** Tracker runs on the thread so far (a figure for tests and benches). */
  runs = 0;
  private readonly worker: TrackWorker;
  /** Per analysis (`resultId:createdAt`): the fingerprint its tracks are cached under. */
  private readonly known = new Map<string, string>();
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly store: StoreFile & MediaReader & ResultsReader,
    nativeBinding?: string,
    /** Where tracks are kept between processes (none: tracked again in each process). */
    private readonly dir?: string,
  ) {
    this.worker = new TrackWorker({ file: store.file, nativeBinding });
  }

  /** Resolves once the clip's model tracks are cached (at once for an image or a cached clip). */
  ready(mediaId: number, solution: string): Promise<void> {
    const media = this.store.media.byId(mediaId);
    if (media?.kind !== 'video' || !media.contentHash) return Promise.resolve();
    const result = this.store.results.find(media.contentHash, solution);
    if (!result) return Promise.resolve();
    const key = `${result.id}:${result.createdAt}`;
    const fingerprint = this.known.get(key);
    if (fingerprint !== undefined && this.cache.get(fingerprint)) return Promise.resolve();
    const kept = this.dir === undefined ? undefined : readTrackFile(this.dir, key);
    if (kept) {
      this.cache.set(kept);
      this.known.set(key, kept.fingerprint);
      return Promise.resolve();
    }
    let running = this.inFlight.get(key);
    if (!running) {
      this.runs++;
      running = this.worker
        .track(result.id)
        .then((a) => {
          const rankOf = new Map<number, number>();
          a.ranks.forEach((r, i) => r > 0 && rankOf.set(a.detectionIds[i] as number, r));
          this.cache.set({ fingerprint: a.fingerprint, rankOf });
          this.known.set(key, a.fingerprint);
          if (this.dir !== undefined)
            writeTrackFile(this.dir, key, a.fingerprint, a.detectionIds, a.ranks);
        })
        .catch(() => undefined)
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, running);
    }
    return running;
  }

  /** `handler`, called once the clip it names has its model tracks ready. */
  first<Q extends { id: number; solution: string }, R>(handler: (q: Q) => R): (q: Q) => Promise<R> {
    return async (q) => {
      const tracked = this.ready(q.id, q.solution);
      // Meanwhile this thread reads the rows the handler needs (the tracker's reads its own).
      this.rowsOf(q.id, q.solution);
      await tracked;
      return handler(q);
    };
  }

  private rowsOf(mediaId: number, solution: string): void {
    const hash = this.store.media.byId(mediaId)?.contentHash;
    const result = hash ? this.store.results.find(hash, solution) : undefined;
    if (result) this.cache.rowsOf(result, () => this.store.results.detections(result.id));
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
