/** Reads what LabelDesk stored (read-only) for comparison with what the alt service served. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CLASSES, type TruthBox } from './alt-detect.js';
import type { AltService } from './alt-service.js';

export interface StoredBox {
  path: string;
  hash: string;
  frame: number;
  timeMs: number | null;
  label: string;
  score: number;
  x: number;
  y: number;
  w: number;
  h: number;
  analysedWidth: number;
}

function open(home: string): Database.Database {
  return new Database(join(home, 'library.sqlite'), { readonly: true, fileMustExist: true });
}

export function storedBoxes(home: string): StoredBox[] {
  const db = open(home);
  try {
    return db
      .prepare(
        `SELECT m.path, m.content_hash AS hash, d.frame_index AS frame, d.time_ms AS timeMs,
           d.label, d.score, d.x, d.y, d.w, d.h, r.analysed_width AS analysedWidth
         FROM media m JOIN results r ON r.content_hash = m.content_hash
         JOIN detections d ON d.result_id = r.id
         ORDER BY m.path, d.frame_index, d.x`,
      )
      .all() as StoredBox[];
  } finally {
    db.close();
  }
}

function scalar(home: string, sql: string): number {
  const db = open(home);
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export const ledgerFrames = (home: string): number =>
  scalar(home, 'SELECT coalesce(sum(frames), 0) AS n FROM frames_ledger');

export const rawAnswerCount = (home: string): number =>
  scalar(home, 'SELECT count(*) AS n FROM raw_answers WHERE read_at IS NULL');

const byX = (a: { x: number }, b: { x: number }) => a.x - b.x;

/** Every box served for every stored file is stored exactly (label, score, box, frame time). */
export function expectServedBoxesStored(home: string, alt: AltService): number {
  const stored = storedBoxes(home);
  let compared = 0;
  const hashes = new Set(stored.map((s) => s.hash));
  for (const hash of hashes) {
    const served = alt.served.get(hash);
    expect(served, `the alt service served ${hash}`).toBeDefined();
    const mine = stored.filter((s) => s.hash === hash);
    const frames = served?.frames ?? [{ index: 0, timeMs: null, boxes: served?.boxes ?? [] }];
    for (const f of frames) {
      const got = mine.filter((s) => s.frame === f.index).sort(byX);
      const want: TruthBox[] = [...f.boxes].sort(byX);
      expect(got.map((g) => g.label)).toEqual(want.map((b) => CLASSES[b.classIndex]));
      got.forEach((g, i) => {
        const b = want[i] as TruthBox;
        expect(g.x).toBeCloseTo(b.x, 6);
        expect(g.y).toBeCloseTo(b.y, 6);
        expect(g.w).toBeCloseTo(b.w, 6);
        expect(g.h).toBeCloseTo(b.h, 6);
        expect(g.score).toBeCloseTo(b.score, 3);
        if (f.timeMs !== null) expect(g.timeMs).toBeCloseTo(f.timeMs, 3);
        compared++;
      });
    }
  }
  return compared;
}
