import type { Db } from '../../node-lib/sqlite.js';
import type { LibraryStore, RawAnswerInput, RawAnswerRow } from './store-types.js';

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
});

/** Paid answers kept as received because LabelDesk could not read them (issue 16 §3). */
export class RawAnswersRepo implements RawAnswersApi {
  private readonly keepStmt;
  private readonly unreadStmt;
  private readonly markStmt;
  private readonly countStmt;

  constructor(db: Db) {
    this.keepStmt = db.prepare<[Record<string, unknown>]>(`
      INSERT INTO raw_answers (submission_id, content_hash, solution, service_url, answer,
        http_status, body, problems, received_at)
      VALUES (@submissionId, @contentHash, @solution, @serviceUrl, @answer, @httpStatus, @body,
        @problems, @at)`);
    this.unreadStmt = db.prepare<[], RawAnswerDbRow>(
      'SELECT * FROM raw_answers WHERE read_at IS NULL ORDER BY id',
    );
    this.markStmt = db.prepare<[number, number]>(
      'UPDATE raw_answers SET read_at = ? WHERE id = ? AND read_at IS NULL',
    );
    this.countStmt = db.prepare<[], { n: number }>(
      'SELECT count(*) AS n FROM raw_answers WHERE read_at IS NULL',
    );
  }

  keep(input: RawAnswerInput): number {
    const info = this.keepStmt.run({ ...input, problems: JSON.stringify(input.problems) });
    return Number(info.lastInsertRowid);
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
}
