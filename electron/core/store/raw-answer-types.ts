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
  /** Read with the box origin assumed (the service's was undecided): read again once confirmed. */
  originPending: boolean;
  /** Read again with the origin the service's boxes decided, no person's word yet (issue 23). */
  decidedOrigin?: 'corner' | 'centre';
}

/** An answer read (and its result saved) while the service's box origin was undecided. */
export type HeldAnswerInput = Omit<RawAnswerInput, 'problems'>;

export interface RawAnswersApi {
  keep(answer: RawAnswerInput): number;
  /** Kept answers not yet read, oldest first. */
  unread(): RawAnswerRow[];
  /** The answer was read (its result saved): it no longer counts as kept unread. */
  markRead(id: number, at: number): void;
  /** How many paid answers are kept unread (doctor and the Service screen show it). */
  countUnread(): number;
  /** Keeps an answer that was read with the box origin assumed (issue 23), already read. */
  hold(answer: HeldAnswerInput): number;
  /** Answers read with the box origin assumed, oldest first. */
  originPending(): RawAnswerRow[];
  countOriginPending(): number;
  /**
   * Read again with the confirmed origin (or superseded): no longer held. `decided`: read with
   * the origin the boxes decided, kept open to a person's word (originDecided).
   */
  settleOrigin(id: number, decided?: 'corner' | 'centre'): void;
  /** Answers read again with a decided origin that no person has confirmed or overruled yet. */
  originDecided(): RawAnswerRow[];
  countOriginDecided(): number;
}
