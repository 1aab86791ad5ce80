/**
 * A save made while the sync engine is pulling goes out beside the pull, not after it: with a
 * busy team a sync is nearly always pulling someone's change, and a person's edit would wait.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TeamChange } from '../../../../electron/core/store/team-types.js';
import { startSyncEngine } from '../../../../electron/core/team/sync-engine.js';
import { teamDesktops } from './team-desktop.js';

const desktop = teamDesktops();

describe('the sync engine', () => {
  it('pushes a save made during a pull before the pull ends', async () => {
    const store = await desktop('a');
    const pushed: TeamChange[][] = [];
    let release: (() => void) | undefined;
    const pullGate = new Promise<void>((resolve) => (release = resolve));
    let pulling: (() => void) | undefined;
    const pullStarted = new Promise<void>((resolve) => (pulling = resolve));
    const errors: unknown[] = [];
    const engine = startSyncEngine({
      store,
      hub: {
        listen: () => Promise.resolve(),
        push: (changes) => {
          pushed.push([...changes]);
          return Promise.resolve();
        },
        // The first pull stands for a long one: it ends only when the test says.
        pull: () => {
          pulling?.();
          return pullGate.then(() => []);
        },
      },
      now: Date.now,
      outboxMs: 10,
      pollMs: 60_000,
      onError: (err) => errors.push(err),
    });
    await pullStarted;
    expect(pushed).toEqual([]);
    store.corrections.put({
      contentHash: 'h1',
      solution: 'objects',
      frameIndex: 0,
      timeMs: null,
      anchor: null,
      label: 'kite',
      bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
      review: 'accepted',
      deleted: false,
    });
    try {
      await vi.waitFor(() => expect(pushed.flat().map((c) => c.state?.label)).toEqual(['kite']));
      expect(store.team.outbox(10)).toEqual([]);
    } finally {
      release?.();
      await engine.started;
      await engine.stop();
    }
    expect(errors).toEqual([]);
  });
});
