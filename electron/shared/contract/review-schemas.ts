/**
 * Review: the corrected boxes of an item and the edits people make to them. Every edit is saved
 * at once and answers with the edit that undoes it, so undo/redo works across items and reloads.
 */
import { Id } from './common-schemas.js';
import { StartRunInput } from './run-schemas.js';
import { z } from './zod.js';
import { BoxSchema } from '../geometry/box.js';

const Unit = z.number().min(-1).max(2);
/** Normalised to the displayed (EXIF-oriented) picture; the server clamps it to the picture. */
export const NormBox = z.object({
  x: Unit,
  y: Unit,
  w: z.number().positive().max(2),
  h: z.number().positive().max(2),
});
const Label = z.string().trim().min(1).max(200);

/** Names a box: its model detection, its correction, or both (as `ReviewBox` carries them). */
export const BoxRef = z
  .object({ detectionId: Id.nullable(), correctionId: Id.nullable() })
  .refine((r) => r.detectionId !== null || r.correctionId !== null, 'a box needs an id');

export const ReviewBox = z.object({
  /** Stable within the item (`d<detection>` or `c<correction>`): list keys, selection. */
  key: z.string(),
  detectionId: Id.nullable(),
  correctionId: Id.nullable(),
  /** A sample's index; with `keyframe`, the clip frame. */
  frameIndex: z.number(),
  /** A keyframe a person put between analysed samples. Absent: a sample. */
  keyframe: z.literal(true).optional(),
  timeMs: z.number().nullable(),
  label: z.string(),
  score: z.number().nullable(),
  bbox: BoxSchema,
  origin: z.enum(['model', 'edited', 'added']),
  review: z.enum(['pending', 'accepted', 'rejected']),
  deleted: z.boolean(),
  /** A crowd region (COCO's `iscrowd`): drawn dashed, named "crowd region". */
  crowd: z.boolean().optional(),
  /** What the model said, when a model box is under it (null for a drawn box). */
  model: z
    .object({
      label: z.string(),
      score: z.number().nullable(),
      bbox: BoxSchema,
    })
    .nullable(),
  /** Clips: the track the box belongs to (1, 2, …); null for images. */
  trackId: z.number().nullable(),
  /** Accepted by an auto-accept rule (its text) rather than by a person; null otherwise. */
  rule: z.string().nullish(),
});
export type ReviewBox = z.infer<typeof ReviewBox>;

export const ReviewEdit = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['move', 'resize']), box: BoxRef, bbox: NormBox }),
  z.object({ kind: z.literal('relabel'), box: BoxRef, label: Label }),
  /** Puts a box in a person's track of a clip (null: back to the tracker's). */
  z.object({ kind: z.literal('track'), box: BoxRef, track: z.number().int().min(1).nullable() }),
  z.object({
    kind: z.enum(['delete', 'restore', 'accept', 'reject', 'reset']),
    box: BoxRef,
  }),
  z.object({
    kind: z.literal('add'),
    /** A sample's index; with `keyframe`, the clip frame between samples. */
    frameIndex: z.number().int().min(0),
    keyframe: z.literal(true).optional(),
    timeMs: z.number().min(0).nullable(),
    label: Label,
    bbox: NormBox,
    /** How the drawn box starts (accepted when absent); an undo restores a box as it was. */
    review: z.enum(['pending', 'accepted', 'rejected']).optional(),
    /** Clips: the person's track the box starts in (a keyframe). */
    track: z.number().int().min(1).nullish(),
  }),
]);
export type ReviewEdit = z.infer<typeof ReviewEdit>;

const ItemRef = { id: Id, solution: z.string().min(1).max(200) };

export const ReviewBoxesInput = z.object({
  ...ItemRef,
  /** Also the boxes a person deleted (to restore them). */
  includeDeleted: z.boolean().default(false),
  /** Clips: only this sampled frame. */
  frameIndex: z.number().int().min(0).optional(),
});

export const ReviewBoxes = z.object({
  analysedWidth: z.number().nullable(),
  analysedHeight: z.number().nullable(),
  boxes: z.array(ReviewBox),
});

export const ReviewEditInput = z.object({ ...ItemRef, edit: ReviewEdit });
/** Several edits saved in one transaction (an undo of a bulk action). */
export const ReviewEditsInput = z.object({
  ...ItemRef,
  edits: z.array(ReviewEdit).min(1).max(100_000),
});

export const ReviewEditResult = z.object({
  /** The box after the edit (null when a box is deleted and so no longer shown). */
  box: ReviewBox.nullable(),
  /** Applying it undoes this edit. */
  inverse: ReviewEdit,
});

export const ReviewEditsResult = z.object({
  changed: z.number(),
  /** Applying these (with `review.editMany`) undoes the whole action. */
  inverse: z.array(ReviewEdit),
});

/** The boxes shown: the same threshold and class filter as the stage. */
export const ReviewBulkInput = z.object({
  ...ItemRef,
  minScore: z.number().min(0).max(1).default(0),
  classes: z.array(Label).max(1000).optional(),
  frameIndex: z.number().int().min(0).optional(),
});

export const RelabelTrackInput = z.object({
  ...ItemRef,
  trackId: z.number().int().min(1),
  label: Label,
});

const TrackId = z.number().int().min(1);

/**
 * A decision on every box of some tracks of a clip: accept, reject or delete them all, in one
 * transaction. A track that is not in the clip (any more) refuses the whole call.
 */
export const EditTrackInput = z.object({
  ...ItemRef,
  trackIds: z.array(TrackId).min(1).max(1000),
  kind: z.enum(['accept', 'reject', 'delete']),
});

/** Tracks of one clip made one: every box joins the track with the smallest of these ids. */
export const MergeTracksInput = z.object({
  ...ItemRef,
  trackIds: z.array(TrackId).min(2).max(1000),
});

/**
 * A track cut in two: its boxes from the analysed frame `frameIndex` on (by time, keyframes between
 * samples included) become a new track; `timeMs` places the cut on a frame between samples.
 */
export const SplitTrackInput = z.object({
  ...ItemRef,
  trackId: TrackId,
  frameIndex: z.number().int().min(0),
  timeMs: z.number().min(0).optional(),
});

/**
 * A keyframe of a clip's track: a box a person drew or moved on one frame (a sample's index, or
 * with `keyframe` a clip frame between samples). The track becomes a person's track; a box it
 * already has on that frame moves, else one is added with the track's label (`label` names a new
 * track's class). One undo step.
 */
export const AddKeyframeInput = z.object({
  ...ItemRef,
  trackId: TrackId,
  frameIndex: z.number().int().min(0),
  keyframe: z.literal(true).optional(),
  timeMs: z.number().min(0),
  label: Label,
  bbox: NormBox,
});

/** Re-analysis of chosen items: spends frames like runs.start; corrections are kept. */
export const ReanalyseInput = StartRunInput.omit({ folderIds: true, retryUncertain: true }).extend({
  mediaIds: z.array(Id).min(1).max(200_000),
});
export const ReanalyseScope = z.object({
  solution: z.string().min(1).max(200),
  mediaIds: z.array(Id).min(1).max(200_000),
});
