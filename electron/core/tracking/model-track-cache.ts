/**
 * What the model answered for the last few clips opened, kept between calls: the model's tracks
 * by fingerprint of their boxes (an edit, a refetch or a track decision on the same analysis finds
 * them here instead of re-tracking), and the model's rows themselves (reading 50,000 rows from
 * SQLite takes longer than everything else a review call does with them).
 */
import { fingerprintOf, trackModelBoxes, type ModelTracks } from './model-tracks.js';
import type { DetectionRow, ResultRow } from '../store/store-types.js';

/** Clips kept: the one under review, the neighbours prefetched, one just left. */
const KEEP = 4;

/** Clips whose model rows are kept (they are large): the one under review and one more. */
const KEEP_ROWS = 2;
/** Fewer rows than this are read again each time (cheap), so small items never fill the cache. */
const ROWS_WORTH_KEEPING = 2000;

export class ModelTrackCache {
  private readonly byFingerprint = new Map<string, ModelTracks>();
  private readonly rows = new Map<string, DetectionRow[]>();

  /**
   * The result's model rows (callers must not change them). A re-analysis saves a new
   * `createdAt` on the result and so is read afresh.
   */
  rowsOf(result: ResultRow, read: () => DetectionRow[]): DetectionRow[] {
    const key = `${result.id}:${result.createdAt}`;
    const hit = this.rows.get(key);
    if (hit) return hit;
    const fresh = read();
    if (fresh.length < ROWS_WORTH_KEEPING) return fresh;
    for (const k of this.rows.keys()) if (k.startsWith(`${result.id}:`)) this.rows.delete(k);
    this.rows.set(key, fresh);
    while (this.rows.size > KEEP_ROWS) this.rows.delete(this.rows.keys().next().value as string);
    return fresh;
  }

  get(fingerprint: string): ModelTracks | undefined {
    const hit = this.byFingerprint.get(fingerprint);
    if (hit) {
      // Most recently used last: the first entry is the one to drop.
      this.byFingerprint.delete(fingerprint);
      this.byFingerprint.set(fingerprint, hit);
    }
    return hit;
  }

  set(tracks: ModelTracks): void {
    this.byFingerprint.delete(tracks.fingerprint);
    this.byFingerprint.set(tracks.fingerprint, tracks);
    while (this.byFingerprint.size > KEEP) {
      const oldest = this.byFingerprint.keys().next().value as string;
      this.byFingerprint.delete(oldest);
    }
  }

  /** The tracks of `rows`: cached, or computed on this thread now (and kept). */
  tracksOf(rows: readonly DetectionRow[]): ModelTracks {
    const fingerprint = fingerprintOf(rows);
    const hit = this.get(fingerprint);
    if (hit) return hit;
    const fresh = trackModelBoxes(rows);
    this.set(fresh);
    return fresh;
  }
}
