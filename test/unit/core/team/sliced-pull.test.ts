/**
 * A long pull is applied in slices, each committed with its cursor, the event loop running
 * between them (the app answers a person meanwhile); a page shorter than asked for ends the pull
 * without another round trip to the hub.
 */
import { describe, expect, it } from 'vitest';
import { pullChanges } from '../../../../electron/core/team/team-sync.js';
import { drawnLog, teamDesktops } from './team-desktop.js';

const desktop = teamDesktops();

describe('a long pull', () => {
  it('applies a page in committed slices with the event loop running between, in one round trip', async () => {
    const log = await drawnLog(desktop, 300);
    const b = await desktop('b');
    let pulls = 0;
    const hub = {
      pull: (cursor: number, limit: number) => {
        pulls++;
        return Promise.resolve(log.filter((c) => c.seq > cursor).slice(0, limit));
      },
    };
    const seen: number[] = [];
    let done = false;
    const watch = () => {
      seen.push(b.team.link()?.pullCursor ?? -1);
      if (!done) setImmediate(watch);
    };
    setImmediate(watch);
    const pulled = await pullChanges(b, hub, () => 5);
    done = true;
    expect(pulled).toBe(300);
    expect(pulls).toBe(1);
    expect(b.team.link()?.pullCursor).toBe(300);
    expect(b.corrections.forContent('h1', 'objects')).toHaveLength(300);
    // The loop ran while the page was being applied, and found part of it committed.
    expect(seen.some((cursor) => cursor > 0 && cursor < 300)).toBe(true);
  });
});
