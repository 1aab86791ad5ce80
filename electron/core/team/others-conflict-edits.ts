/**
 * An annotator who edits a box in conflict between other members makes a change based on every
 * version, which settles the conflict, and settling others' conflict is the lead's: the hub
 * refuses it (hub-work-schema.ts, changes_settle_check), and the change would wait in the outbox
 * forever. Before a push, such a change is based instead on the version its author saw (the one
 * the box showed: the greatest id, box-versions.ts): it goes out as one more version of the box,
 * the conflict stays open for the lead with the annotator's edit among its versions, and no
 * edit is lost. A lead's changes are left as they are (the hub lets a lead settle any box).
 */
import type { TeamApplyPort } from '../store/store-ports.js';
import { resettle } from './apply-changes.js';

/** How many waiting changes were based again on one version. */
export function keepOthersConflictsOpen(store: TeamApplyPort): number {
  const link = store.team.link();
  if (!link || link.role === 'lead') return 0;
  const edits = store.team.settle.othersConflictEdits(link.member);
  if (edits.length === 0) return 0;
  store.transaction(() => {
    for (const e of edits) {
      const seen = [...e.parents].sort().pop() as string;
      store.team.settle.reparent(e.id, [seen]);
    }
    resettle(store, new Set(edits.map((e) => e.box)));
  });
  return edits.length;
}
