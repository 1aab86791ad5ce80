/**
 * Review marks' part of a sync: push this desktop's marks in order (ids make a repeated push
 * harmless), then pull the hub's after the marks' cursor and apply them page by page (the cursor
 * moves in the apply's transaction). A project made before the hub had marks has no table for
 * them: its marks stay local, and the sync says so rather than failing.
 */
import type { TeamPort, TransactionPort } from '../store/store-ports.js';
import type { HubClient } from './hub-client.js';
import { checkMarksHeld } from './hub-marks-check.js';
import { TeamError } from './team-errors.js';

const PAGE = 2000;

export async function syncMarks(
  store: TeamPort & TransactionPort,
  hub: Pick<HubClient, 'pushMarks' | 'pullMarks'>,
): Promise<{ marksPushed: number; marksPulled: number } | { marksShared: false }> {
  const marks = store.team.marks;
  let marksPushed = 0;
  let marksPulled = 0;
  try {
    // A new connection may have reached a promoted standby lacking marks it acknowledged.
    await checkMarksHeld(store, hub);
    for (;;) {
      const page = marks.outbox(PAGE);
      if (page.length === 0) break;
      await hub.pushMarks(page);
      marks.markPushed(page.map((m) => m.id));
      marksPushed += page.length;
    }
    for (;;) {
      const page = await hub.pullMarks(marks.cursor(), PAGE);
      if (page.length === 0) break;
      marks.applyPulled(page);
      marksPulled += page.length;
    }
  } catch (err) {
    // No `marks` table in this (older) project: the changes' sync just reached the project.
    if (err instanceof TeamError && err.code === 'unknown_project') return { marksShared: false };
    throw err;
  }
  return { marksPushed, marksPulled };
}
