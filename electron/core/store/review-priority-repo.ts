/** The cached review priority of each labelled file (migration 9), and when it is out of date. */
import type { Db } from '../../node-lib/sqlite.js';
import type { PriorityBasis, ReviewPriorityApi, ScoredFile } from './review-priority-types.js';

/** Bumped when the scores mean something else: scores stored before are computed again. */
const SCORES_VERSION = 2;

/** The settings row holding the basis of a solution's stored scores. */
const basisKey = (solution: string) => `review-priority.basis.${solution}`;

export class ReviewPriorityRepo implements ReviewPriorityApi {
  private readonly parts;
  private readonly stored;
  private readonly replaceTx;
  private readonly scoredFilesStmt;
  private readonly anyScoredStmt;
  private readonly setScoreStmt;

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
    // The basis is a settings row, not a column: it is one small value per solution.
    const setBasis = db.prepare<[string, string]>(
      `INSERT INTO settings (key, value) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    this.replaceTx = db.transaction(
      (solution: string, fingerprint: string, basis: string, scores: ScoreRows) => {
        clear.run(solution);
        for (const [mediaId, score] of scores) insert.run(solution, mediaId, score);
        setBasis.run(basisKey(solution), basis);
        state.run(solution, fingerprint, now());
      },
    );
    // The files of the result that have a stored score, with the basis of their solution. CROSS
    // JOIN keeps SQLite's order (the result, its files by hash, their scores): left to itself it
    // walks every score of the solution for each call, and an import makes 100k calls.
    this.scoredFilesStmt = db.prepare<[number, string], ScoredFile>(
      `SELECT p.solution, m.id, m.folder_id AS folderId, m.kind, s.value AS basis
       FROM results r
       CROSS JOIN media m
       CROSS JOIN review_priority p
       CROSS JOIN settings s
       WHERE r.id = ? AND m.content_hash = r.content_hash AND p.solution = r.solution
         AND p.media_id = m.id AND s.key = ? || r.solution`,
    );
    this.anyScoredStmt = db
      .prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM review_priority WHERE solution = ?)')
      .pluck();
    this.setScoreStmt = db.prepare<[number, string, number]>(
      'UPDATE review_priority SET score = ? WHERE solution = ? AND media_id = ?',
    );
  }

  fingerprint(solution: string): string {
    const { reviewed, ...rest } = this.parts.get({ solution }) ?? {};
    // Calibration moves with the reviewed evidence; refreshed each time it doubles.
    const n = reviewed ?? 0;
    const evidence = n === 0 ? 0 : 1 + Math.floor(Math.log2(n));
    return JSON.stringify({ ...rest, evidence, version: SCORES_VERSION });
  }

  storedFingerprint(solution: string): string | undefined {
    return this.stored.get(solution);
  }

  replace(solution: string, fingerprint: string, basis: PriorityBasis, scores: ScoreRows): void {
    this.replaceTx(solution, fingerprint, JSON.stringify(basis), scores);
  }

  anyScored(solution: string): boolean {
    return this.anyScoredStmt.get(solution) === 1;
  }

  scoredFiles(resultId: number): ScoredFile[] {
    return this.scoredFilesStmt.all(resultId, basisKey(''));
  }

  setScore(solution: string, mediaId: number, score: number): void {
    this.setScoreStmt.run(score, solution, mediaId);
  }
}

type ScoreRows = Parameters<ReviewPriorityApi['replace']>[3];
