/** "Check service" (and `labeldesk doctor`): what LabelDesk understood of each part of a service. */
import { BoxSchema } from '../geometry/box.js';
import { z } from './zod.js';

export const BoxOrigin = z.enum(['corner', 'centre']);
export type BoxOrigin = z.infer<typeof BoxOrigin>;

/**
 * One part of the service and how it was read: `understood`, `understood-as` (an alternative
 * form), `not-published` (a named fallback is used), or `not-understood` (LabelDesk cannot work
 * with it as it is). `text` is the sentence a person reads.
 */
export const CheckPart = z.object({
  part: z.string(),
  verdict: z.enum(['understood', 'understood-as', 'not-published', 'not-understood']),
  text: z.string(),
});
export type CheckPart = z.infer<typeof CheckPart>;

/** A returned box, normalised 0–1 (top-left corner and size, as read with the current setting). */
export const CheckBox = z
  .object({ label: z.string(), score: z.number().nullable() })
  // The box's own fields after these, as they always came (a script may read the JSON's order).
  .extend(BoxSchema.shape);
export type CheckBox = z.infer<typeof CheckBox>;

/** What sending one file taught: its detections' form, what it cost, the boxes to look at. */
export const CheckSpend = z.object({
  file: z.string(),
  kind: z.enum(['image', 'video']),
  solution: z.string(),
  /** Frames the call cost (the answer's credits, or GET /key before and after); null if unknown. */
  spent: z.number().nullable(),
  /** One sentence on the cost: published and matching, learnt, or changed. */
  cost: z.string(),
  /** How the detections were read, one sentence per remark ("understood" when all as expected). */
  detectionForm: z.array(z.string()),
  boxes: z.array(CheckBox),
  /** The image as a data URL (JPEG, at most 960 px), to draw the boxes on; null for a clip. */
  preview: z.string().nullable(),
  /** The reading setting the boxes were read with. */
  boxOrigin: BoxOrigin,
});
export type CheckSpend = z.infer<typeof CheckSpend>;

export const CheckReport = z.object({
  service: z.string(),
  /** Everything LabelDesk needs was understood (doctor exits 0). */
  ok: z.boolean(),
  parts: z.array(CheckPart),
  /** Paid answers kept raw because they could not be read (read again when the reading improves). */
  keptAnswers: z.number(),
  spend: CheckSpend.nullable(),
  checkedAt: z.number(),
});
export type CheckReport = z.infer<typeof CheckReport>;

export const CheckInput = z.object({
  /** A file to send (spends its frames); without it nothing is spent. */
  spendFile: z.string().min(1).max(4096).optional(),
  solution: z.string().min(1).max(200).optional(),
});

export const ReadingInput = z.object({ boxOrigin: BoxOrigin });
