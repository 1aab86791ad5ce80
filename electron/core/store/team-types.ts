import type { Box, ColumnsOf } from '../../shared/geometry/box.js';
import type { ResultRow } from './row-types.js';
import type { TeamFailoverApi } from './team-failover-repo.js';
import type { TeamMarksApi } from './team-marks-types.js';
import type { TeamSettleApi } from './team-settle-repo.js';

/** This desktop's side of a team project (migration 10): its link to the hub and its changes. */

/** The project this library belongs to; the hub's address is stored without its password. */
export interface TeamLink {
  hub: string;
  project: string;
  folder: string;
  member: string;
  role: 'lead' | 'annotator';
}

export interface TeamLinkRow extends TeamLink {
  /** The hub's last change (its `seq`) applied here. */
  pullCursor: number;
  lastSyncAt: number | null;
  joinedAt: number;
}

/** One change of one box, as it travels: its id, the version it was based on, the box after it. */
export interface TeamChange {
  id: string;
  box: string;
  contentHash: string;
  solution: string;
  /** The changes of this box it was based on (the box's heads when it was made). */
  parents: string[];
  /** The box's correction columns after it (`TeamBoxState`); null: as the model has it. */
  state: TeamBoxState | null;
  /** Milliseconds since the epoch, on the desktop that made it. */
  at: number;
}

/** A change from the hub: who made it, and where it sits in the hub's order. */
export interface PulledChange extends TeamChange {
  member: string;
  seq: number;
}

/** A box as a change carries it: the correction row's columns (migration 10's `json_object`). */
export interface TeamBoxState extends ColumnsOf<Box> {
  frameIndex: number;
  timeMs: number | null;
  anchorLabel: string | null;
  anchorScore: number | null;
  anchorX: number | null;
  anchorY: number | null;
  anchorW: number | null;
  anchorH: number | null;
  label: string | null;
  review: 'pending' | 'accepted' | 'rejected';
  deleted: 0 | 1;
  track: number | null;
  /**
   * What an import set on the box (migration 17; a state made before lacks them: 0/null): the
   * box is the person's (no model score), a crowd region, the kept COCO annotation fields (JSON).
   */
  personMade?: 0 | 1;
  crowd?: 0 | 1;
  coco?: string | null;
}

/** Where this desktop has a box: its correction row, its head change(s), the one it shows. */
export interface TeamBoxRow {
  box: string;
  correctionId: number | null;
  heads: string[];
  shown: string | null;
}

/** One version of a box in conflict: a head change, who made it (null: this desktop, not yet pushed). */
export interface TeamHead extends TeamChange {
  member: string | null;
  /** Made on this desktop. */
  own: boolean;
}

/** A box with two or more heads, its versions oldest first, and a file of this library that shows it. */
export interface TeamConflictRow {
  box: string;
  heads: TeamHead[];
  /** The change the box shows meanwhile. */
  shown: string | null;
  path: string | null;
  /** This library's correction row of the box (the review names its box by it). */
  correctionId: number | null;
}

export interface TeamApi {
  link(): TeamLinkRow | undefined;
  /** Joins a project: the corrections made so far, and from now on every saved one, are changes to push. */
  setLink(link: TeamLink, at: number): void;
  /**
   * Leaves: the link goes (the corrections stay); the change and box records stay too, so joining
   * the same project again republishes only what the hub lacks (team-rejoin.ts).
   */
  unlink(): void;
  /** This desktop's changes not yet in the hub, oldest first. */
  outbox(limit: number): TeamChange[];
  /** Marks changes as stored in the hub (they may be pushed again harmlessly until then). */
  markPushed(ids: readonly string[]): void;
  /** Records pulled changes (known ones get their hub order); returns the boxes they touch. */
  recordPulled(changes: readonly PulledChange[]): Set<string>;
  changesOfBox(box: string): TeamChange[];
  /** How many changes of the box are recorded (without reading them). */
  countOfBox(box: string): number;
  /** Whether the library still has this correction row. */
  hasCorrection(id: number): boolean;
  box(box: string): TeamBoxRow | undefined;
  setBox(row: TeamBoxRow): void;
  /** `setBox` of many rows (inside the caller's transaction), several per statement. */
  setBoxes(rows: readonly TeamBoxRow[]): void;
  /** Brackets a pulled apply (inside one transaction): corrections written meanwhile are not changes. */
  applying(on: boolean): void;
  moveCursor(seq: number, at: number): void;
  counts(): { pendingPush: number; conflicts: number };
  /** Review marks shared with the team (migration 12). */
  marks: TeamMarksApi;
  /** Checks and repairs after the hub fails over (team-failover-repo.ts). */
  failover: TeamFailoverApi;
  /** Edits of others' conflicts, and COCO fields a pulled state cleared (team-settle-repo.ts). */
  settle: TeamSettleApi;
  /** Boxes in conflict (all, or of one content), by box. */
  conflicts(contentHash?: string): TeamConflictRow[];
  /** Records a change made here without a correction save (a person settling a conflict). */
  recordOwn(change: TeamChange): void;
  /** Every stored result (any solution) of these contents: what this desktop can share. */
  resultsOf(contentHashes: readonly string[]): ResultRow[];
}
