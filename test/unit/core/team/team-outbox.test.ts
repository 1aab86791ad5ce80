/**
 * The outbox is filled in the very transaction that saves a correction (a rolled-back edit
 * leaves no change), only while the library is in a project, and changes applied from the hub
 * do not go out again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPulled } from '../../../../electron/core/team/apply-changes.js';
import { storeFixture, type StoreFixture } from '../store/store-fixture.js';
import { drawn } from './drawn-box.js';

let fx: StoreFixture;
beforeEach(async () => (fx = await storeFixture()));
afterEach(() => fx.done());

const join = () =>
  fx.store.team.setLink(
    { hub: 'postgresql://a@h/db', project: 'p', folder: '/f', member: 'a', role: 'lead' },
    1,
  );

describe('the team outbox', () => {
  it('records nothing while the library is in no project, and publishes earlier work on joining', () => {
    fx.store.corrections.put(drawn('kite'));
    expect(fx.store.team.outbox(10)).toEqual([]);
    join();
    expect(fx.store.team.outbox(10)).toMatchObject([{ parents: [], state: { label: 'kite' } }]);
  });

  it('records a saved correction as a change based on the box version it saw, in its transaction', () => {
    join();
    const row = fx.store.corrections.put(drawn('kite'));
    const [first] = fx.store.team.outbox(10);
    expect(first).toMatchObject({ parents: [], state: { label: 'kite', review: 'accepted' } });
    fx.store.corrections.put({ ...drawn('bird'), id: row.id });
    const second = fx.store.team.outbox(10)[1];
    expect(second).toMatchObject({
      box: first?.box,
      parents: [first?.id],
      state: { label: 'bird' },
    });
    expect(() =>
      fx.store.transaction(() => {
        fx.store.corrections.put({ ...drawn('cat'), id: row.id });
        throw new Error('the edit fails after its write');
      }),
    ).toThrow('the edit fails');
    expect(fx.store.team.outbox(10).map((c) => c.state?.label)).toEqual(['kite', 'bird']);
    expect(fx.store.team.counts()).toEqual({ pendingPush: 2, conflicts: 0 });
  });

  it('does not send back what it applied from the hub', () => {
    join();
    applyPulled(
      fx.store,
      [
        {
          id: '00000000-0000-4000-8000-000000000001',
          box: 'drawn:x',
          contentHash: 'h1',
          solution: 'objects',
          parents: [],
          state: {
            frameIndex: 0,
            timeMs: null,
            anchorLabel: null,
            anchorScore: null,
            anchorX: null,
            anchorY: null,
            anchorW: null,
            anchorH: null,
            label: 'kite',
            x: 0.1,
            y: 0.1,
            w: 0.2,
            h: 0.2,
            review: 'accepted',
            deleted: 0,
            track: null,
          },
          at: 1,
          member: 'b',
          seq: 7,
        },
      ],
      2,
    );
    expect(fx.store.corrections.forContent('h1', 'objects').map((c) => c.label)).toEqual(['kite']);
    expect(fx.store.team.outbox(10)).toEqual([]);
    expect(fx.store.team.link()).toMatchObject({ pullCursor: 7, lastSyncAt: 2 });
    // A person's next change of that box is based on the applied one.
    const [row] = fx.store.corrections.forContent('h1', 'objects');
    fx.store.corrections.put({ ...drawn('bird'), id: row!.id });
    expect(fx.store.team.outbox(10)).toMatchObject([
      { box: 'drawn:x', parents: ['00000000-0000-4000-8000-000000000001'] },
    ]);
  });
  it("keeps a scoreless model box's anchor without a score (a 0 would anchor it to no box)", () => {
    join();
    applyPulled(
      fx.store,
      [
        {
          id: '00000000-0000-4000-8000-000000000002',
          box: 'model:objects:h2:0:dog:0.10000,0.10000,0.20000,0.20000',
          contentHash: 'h2',
          solution: 'objects',
          parents: [],
          state: {
            frameIndex: 0,
            timeMs: null,
            anchorLabel: 'dog',
            anchorScore: null,
            anchorX: 0.1,
            anchorY: 0.1,
            anchorW: 0.2,
            anchorH: 0.2,
            label: 'cat',
            x: null,
            y: null,
            w: null,
            h: null,
            review: 'accepted',
            deleted: 0,
            track: null,
          },
          at: 1,
          member: 'b',
          seq: 8,
        },
      ],
      2,
    );
    const [row] = fx.store.corrections.forContent('h2', 'objects');
    expect(row?.anchor).toEqual({
      label: 'dog',
      score: null,
      bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
    });
  });
});
