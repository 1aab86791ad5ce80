/**
 * Two repairs of what this desktop holds of a team project (migration 10's tables): its own
 * changes the hub would refuse as settling others' conflict, and a COCO field a pulled state
 * cleared (a correction write keeps a field it is given as null: correction-params.ts).
 */
import type { Db } from '../../node-lib/sqlite.js';

export interface TeamSettleApi {
  /**
   * This desktop's changes not pushed yet that are based on two or more versions of a box none
   * of which is this member's (their author saw a conflict between others and edited the box).
   */
  othersConflictEdits(member: string): { id: string; box: string; parents: string[] }[];
  /** A change not pushed yet is based on these versions instead. */
  reparent(id: string, parents: readonly string[]): void;
  /** The correction's kept COCO fields go (a pulled state without them). */
  clearCoco(correctionId: number): void;
  /** The highest correction id (0: none). */
  lastCorrectionId(): number;
  /** The ids of corrections after `id`, ascending (rows a bulk write just inserted). */
  correctionIdsAfter(id: number): number[];
}

export function teamSettleRepo(db: Db): TeamSettleApi {
  // From the outbox's partial index: only changes waiting to go out are read.
  const editsStmt = db.prepare<[string], { id: string; box: string; parents: string }>(
    `SELECT c.id, c.box, c.parents FROM team_changes c
     WHERE c.pushed = 0 AND c.own = 1 AND json_array_length(c.parents) > 1
       AND NOT EXISTS (SELECT 1 FROM json_each(c.parents) p JOIN team_changes q ON q.id = p.value
         WHERE q.own = 1 OR q.member = ?)
     ORDER BY c.seq_local`,
  );
  const reparentStmt = db.prepare<[string, string]>(
    'UPDATE team_changes SET parents = ? WHERE id = ? AND pushed = 0',
  );
  const clearCocoStmt = db.prepare<[number]>(
    'UPDATE corrections SET coco = NULL WHERE id = ? AND coco IS NOT NULL',
  );
  const lastIdStmt = db.prepare<[], number | null>('SELECT max(id) FROM corrections').pluck();
  const idsAfterStmt = db
    .prepare<[number], number>('SELECT id FROM corrections WHERE id > ? ORDER BY id')
    .pluck();
  return {
    lastCorrectionId: () => lastIdStmt.get() ?? 0,
    correctionIdsAfter: (id) => idsAfterStmt.all(id),
    othersConflictEdits: (member) =>
      editsStmt
        .all(member)
        .map((r) => ({ id: r.id, box: r.box, parents: JSON.parse(r.parents) as string[] })),
    reparent: (id, parents) => void reparentStmt.run(JSON.stringify(parents), id),
    clearCoco: (id) => void clearCocoStmt.run(id),
  };
}
