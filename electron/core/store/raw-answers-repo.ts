import type { Db } from '../../node-lib/sqlite.js';
import type { HeldAnswerInput, LibraryStore, RawAnswerInput, RawAnswerRow } from './store-types.js';

type RawAnswersApi = LibraryStore['rawAnswers'];

interface RawAnswerDbRow {
  id: number;
  submission_id: number;
  content_hash: string;
  solution: string;
  service_url: string;
  answer: RawAnswerRow['answer'];
  http_status: number;
  body: string;
  problems: string;
  received_at: number;
  read_at: number | null;
  origin_pending: number;
  decided_origin?: 'corner' | 'centre';
}

const toRow = (r: RawAnswerDbRow): RawAnswerRow => ({
  id: r.id,
  submissionId: r.submission_id,
  contentHash: r.content_hash,
  solution: r.solution,
  serviceUrl: r.service_url,
  answer: r.answer,
  httpStatus: r.http_status,
  body: r.body,
  problems: JSON.parse(r.problems) as string[],
  receivedAt: r.received_at,
  readAt: r.read_at,
  originPending: r.origin_pending === 1,
  ...(r.decided_origin ? { decidedOrigin: r.decided_origin } : {}),
});

/**
 * Paid answers kept as received: because LabelDesk could not read them (issue 16 §3), or because
 * it read them with the box origin assumed (issue 23), to be read again once it is confirmed.
 */
export class RawAnswersRepo implements RawAnswersApi {
  private readonly keepStmt;
  private readonly holdStmt;
  private readonly unreadStmt;
  private readonly markStmt;
  private readonly countStmt;
  private readonly pendingStmt;
  private readonly countPendingStmt;
  private readonly settleStmt;
  private readonly keepDecidedStmt;
  private readonly dropDecidedStmt;
  private readonly decidedStmt;
  private readonly countDecidedStmt;

  constructor(db: Db) {
    this.keepStmt = db.prepare<[Record<string, unknown>]>(`
      INSERT INTO raw_answers (submission_id, content_hash, solution, service_url, answer,
        http_status, body, problems, received_at)
      VALUES (@submissionId, @contentHash, @solution, @serviceUrl, @answer, @httpStatus, @body,
        @problems, @at)`);
    this.holdStmt = db.prepare<[Record<string, unknown>]>(`
      INSERT INTO raw_answers (submission_id, content_hash, solution, service_url, answer,
        http_status, body, problems, received_at, read_at, origin_pending)
      VALUES (@submissionId, @contentHash, @solution, @serviceUrl, @answer, @httpStatus, @body,
        '[]', @at, @at, 1)`);
    this.unreadStmt = db.prepare<[], RawAnswerDbRow>(
      'SELECT * FROM raw_answers WHERE read_at IS NULL ORDER BY id',
    );
    this.markStmt = db.prepare<[number, number]>(
      'UPDATE raw_answers SET read_at = ? WHERE id = ? AND read_at IS NULL',
    );
    this.countStmt = db.prepare<[], { n: number }>(
      'SELECT count(*) AS n FROM raw_answers WHERE read_at IS NULL',
    );
    this.pendingStmt = db.prepare<[], RawAnswerDbRow>(
      'SELECT * FROM raw_answers WHERE origin_pending = 1 ORDER BY id',
    );
    this.countPendingStmt = db.prepare<[], { n: number }>(
      'SELECT count(*) AS n FROM raw_answers WHERE origin_pending = 1',
    );
    this.settleStmt = db.prepare<[number]>(
      'UPDATE raw_answers SET origin_pending = 0 WHERE id = ?',
    );
    this.keepDecidedStmt = db.prepare<[number, string]>(
      'INSERT OR REPLACE INTO raw_answers_decided (raw_answer_id, origin) VALUES (?, ?)',
    );
    this.dropDecidedStmt = db.prepare<[number]>(
      'DELETE FROM raw_answers_decided WHERE raw_answer_id = ?',
    );
    this.decidedStmt = db.prepare<[], RawAnswerDbRow>(`
      SELECT a.*, d.origin AS decided_origin FROM raw_answers_decided d
      JOIN raw_answers a ON a.id = d.raw_answer_id ORDER BY a.id`);
    this.countDecidedStmt = db.prepare<[], { n: number }>(
      'SELECT count(*) AS n FROM raw_answers_decided',
    );
  }

  keep(input: RawAnswerInput): number {
    const info = this.keepStmt.run({ ...input, problems: JSON.stringify(input.problems) });
    return Number(info.lastInsertRowid);
  }

  hold(input: HeldAnswerInput): number {
    return Number(this.holdStmt.run({ ...input }).lastInsertRowid);
  }

  unread(): RawAnswerRow[] {
    return this.unreadStmt.all().map(toRow);
  }

  markRead(id: number, at: number): void {
    this.markStmt.run(at, id);
  }

  countUnread(): number {
    return this.countStmt.get()?.n ?? 0;
  }

  originPending(): RawAnswerRow[] {
    return this.pendingStmt.all().map(toRow);
  }

  countOriginPending(): number {
    return this.countPendingStmt.get()?.n ?? 0;
  }

  settleOrigin(id: number, decided?: 'corner' | 'centre'): void {
    this.settleStmt.run(id);
    if (decided) this.keepDecidedStmt.run(id, decided);
    else this.dropDecidedStmt.run(id);
  }

  originDecided(): RawAnswerRow[] {
    return this.decidedStmt.all().map(toRow);
  }

  countOriginDecided(): number {
    return this.countDecidedStmt.get()?.n ?? 0;
  }
}
