/** The cached review priority of each labelled file (migration 9), and when it is out of date. */
import type { Db } from '../../node-lib/sqlite.js';
import type { ReviewPriorityApi } from './review-priority-types.js';

export class ReviewPriorityRepo implements ReviewPriorityApi {
  private readonly parts;
  private readonly stored;
  private readonly replaceTx;

  constructor(db: Db, now: () => number) {
    this.parts = db.prepare<[{ solution: string }], Record<string, number | null>>(
      `SELECT
        (SELECT count(*) FROM results WHERE solution = @solution) AS results,
        (SELECT max(id) FROM results WHERE solution = @solution) AS lastResult,
        (SELECT total(box_count) FROM results WHERE solution = @solution) AS boxes,
        (SELECT count(*) FROM media WHERE status = 'present') AS files,
        (SELECT max(id) FROM media) AS lastFile,
        (SELECT count(*) FROM rule_batches WHERE solution = @solution AND undone_at IS NULL) AS rules,
        (SELECT max(id) FROM rule_batches WHERE solution = @solution) AS lastRule,
        (SELECT count(*) FROM reviewed_media WHERE solution = @solution) AS reviewed`,
    );
    this.stored = db
      .prepare<[string], string>('SELECT fingerprint FROM review_priority_state WHERE solution = ?')
      .pluck();
    const clear = db.prepare<[string]>('DELETE FROM review_priority WHERE solution = ?');
    const insert = db.prepare<[string, number, number]>(
      'INSERT INTO review_priority (solution, media_id, score) VALUES (?, ?, ?)',
    );
    const state = db.prepare<[string, string, number]>(
      `INSERT INTO review_priority_state (solution, fingerprint, computed_at) VALUES (?, ?, ?)
       ON CONFLICT (solution) DO UPDATE SET fingerprint = excluded.fingerprint,
         computed_at = excluded.computed_at`,
    );
    this.replaceTx = db.transaction(
      (solution: string, fingerprint: string, scores: readonly (readonly [number, number])[]) => {
        clear.run(solution);
        for (const [mediaId, score] of scores) insert.run(solution, mediaId, score);
        state.run(solution, fingerprint, now());
      },
    );
  }

  fingerprint(solution: string): string {
    const { reviewed, ...rest } = this.parts.get({ solution }) ?? {};
    // Calibration moves with the reviewed evidence; refreshed each time it doubles.
    const n = reviewed ?? 0;
    const evidence = n === 0 ? 0 : 1 + Math.floor(Math.log2(n));
    return JSON.stringify({ ...rest, evidence });
  }

  storedFingerprint(solution: string): string | undefined {
    return this.stored.get(solution);
  }

  replace(
    solution: string,
    fingerprint: string,
    scores: readonly (readonly [number, number])[],
  ): void {
    this.replaceTx(solution, fingerprint, scores);
  }
}
