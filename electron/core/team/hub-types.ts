/** What the hub holds and answers, as a desktop reads it (hub-client.ts). */
import type { DetectionInput } from '../store/store-types.js';

export interface HubFile {
  contentHash: string;
  relPath: string;
  size: number;
  kind: 'image' | 'video';
  width: number | null;
  height: number | null;
}

/** A paid answer as the hub keeps it: the stored result, boxes included. */
export interface HubAnswer {
  contentHash: string;
  solution: string;
  service: string;
  answer: {
    analysedWidth: number;
    analysedHeight: number;
    model: string | null;
    detections: DetectionInput[];
  };
  /** What the payer's key was charged for it (a clip's frames), when their desktop knows. */
  frames?: number | null;
}

/** A content's state in the hub for a run: answered, claimed by this run, or held by `who`. */
export interface ClaimReply {
  contentHash: string;
  state: 'answer' | 'claimed' | 'held';
  /** With `answer`: the team's answer. */
  answer: HubAnswer['answer'] | null;
  /** Who paid for the answer, holds the claim, or (claimed) this member. */
  who: string;
  /** With `held`: when the claim expires unless renewed (ms epoch, the hub's clock). */
  until: number | null;
}

export const answerKey = (contentHash: string, solution: string) => `${contentHash} ${solution}`;
