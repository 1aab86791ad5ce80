/**
 * The corrections that show a pulled page's settled boxes, written by the bulk writer an import
 * uses: each file's new rows in multi-row inserts and its mirror and review priority refreshed
 * once, instead of one insert with its row read back per box. The bulk writer reads nothing
 * back, so the new rows' ids are read after it: a table without AUTOINCREMENT gives each new row
 * the highest id plus one, so the rows after the highest id before are the new ones, in order.
 */
import type { TeamApplyPort } from '../store/store-ports.js';
import type { CorrectionInput } from '../store/store-types.js';
import type { TeamBoxRow } from '../store/team-types.js';

export interface SettledWrite {
  row: TeamBoxRow;
  write: CorrectionInput;
}

/** Writes them (inside the caller's transaction) and gives each row its correction's id. */
export function writeSettled(store: TeamApplyPort, writes: readonly SettledWrite[]): void {
  if (writes.length === 0) return;
  const byContent = new Map<string, SettledWrite[]>();
  for (const w of writes) {
    const key = `${w.write.solution}\u0000${w.write.contentHash}`;
    const list = byContent.get(key);
    if (list) list.push(w);
    else byContent.set(key, [w]);
  }
  const before = store.team.settle.lastCorrectionId();
  const writer = store.corrections.bulkWriter();
  const inserted: SettledWrite[] = [];
  for (const list of byContent.values()) {
    writer.write(list.map((w) => w.write));
    for (const w of list) {
      if (w.write.id === undefined) inserted.push(w);
      else w.row.correctionId = w.write.id;
    }
  }
  writer.finish();
  if (inserted.length === 0) return;
  const ids = store.team.settle.correctionIdsAfter(before);
  if (ids.length !== inserted.length) {
    throw new Error(`team: ${inserted.length} corrections written, ${ids.length} found after them`);
  }
  inserted.forEach((w, i) => (w.row.correctionId = ids[i] as number));
}
