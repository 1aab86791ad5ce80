/**
 * A pull of a few changes (a NOTIFY's) is applied on this thread at once; a pull that finds a full
 * first page is handed to the pull thread, which applies it (here nothing of it is applied).
 */
import { describe, expect, it } from 'vitest';
import type { PulledChange } from '../../../../electron/core/store/team-types.js';
import { APPLY_HERE, pullByLane } from '../../../../electron/core/team/pull-lanes.js';
import { drawnLog, teamDesktops } from './team-desktop.js';

const desktop = teamDesktops();

const hubOf = (log: readonly PulledChange[]) => ({
  pull: (cursor: number, limit: number) =>
    Promise.resolve(log.filter((c) => c.seq > cursor).slice(0, limit)),
});

describe('the pull lanes', () => {
  it('applies a few changes here and hands a long pull to the thread', async () => {
    const log = await drawnLog(desktop, APPLY_HERE + 20);
    const b = await desktop('b');
    let threadPulls = 0;
    const thread = () => {
      threadPulls++;
      return Promise.resolve(0);
    };
    // A few changes: applied here, the thread not asked.
    expect(await pullByLane(b, hubOf(log.slice(0, 3)), () => 5, thread)()).toBe(3);
    expect(threadPulls).toBe(0);
    expect(b.team.link()?.pullCursor).toBe(3);
    expect(b.corrections.forContent('h1', 'objects')).toHaveLength(3);
    // A full first page: the thread's, nothing more applied here.
    await pullByLane(b, hubOf(log), () => 5, thread)();
    expect(threadPulls).toBe(1);
    expect(b.team.link()?.pullCursor).toBe(3);
    expect(b.corrections.forContent('h1', 'objects')).toHaveLength(3);
  });
});
