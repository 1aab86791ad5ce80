/** A review mark as it travels between desktops (migration 12): by content, not by media id. */
export interface TeamMark {
  id: string;
  contentHash: string;
  solution: string;
  /** Declared reviewed (true) or no longer (false). */
  reviewed: boolean;
  reviewedBy: 'person' | 'import' | null;
}

export interface PulledMark extends TeamMark {
  seq: number;
  member: string;
}

export interface TeamMarksApi {
  /** This desktop's marks not yet in the hub, oldest first. */
  outbox(limit: number): TeamMark[];
  markPushed(ids: readonly string[]): void;
  /** The hub's last mark applied here. */
  cursor(): number;
  /** Applies pulled marks (each to every file with its content) and moves the cursor, at once. */
  applyPulled(marks: readonly PulledMark[]): void;
  /** The ids of this desktop's latest pushed marks (at most `limit`), for a failover's check. */
  lastPushed(limit: number): string[];
  /** These pushed marks go out again (the hub lost them). */
  pushAgain(ids: readonly string[]): void;
  /** The cursor goes back to `seq` if it is past it (the hub's log ends before it). */
  rewindCursor(seq: number): void;
}
