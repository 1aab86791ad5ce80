/** Paid answers kept as received because LabelDesk could not read them (issue 16 §3). */
/** A paid answer as received, with the file (content + solution) and submission it belongs to. */
export interface RawAnswerInput {
  submissionId: number;
  contentHash: string;
  solution: string;
  serviceUrl: string;
  /** Which answer: an image's result, a clip's 202, or a finished job's poll. */
  answer: 'imageResult' | 'videoSubmission' | 'job';
  httpStatus: number;
  body: string;
  /** Why it could not be read, one line per problem. */
  problems: string[];
  at: number;
}

export interface RawAnswerRow extends Omit<RawAnswerInput, 'at'> {
  id: number;
  receivedAt: number;
  readAt: number | null;
}

export interface RawAnswersApi {
  keep(answer: RawAnswerInput): number;
  /** Kept answers not yet read, oldest first. */
  unread(): RawAnswerRow[];
  /** The answer was read (its result saved): it no longer counts as kept unread. */
  markRead(id: number, at: number): void;
  /** How many paid answers are kept unread (doctor and the Service screen show it). */
  countUnread(): number;
}
