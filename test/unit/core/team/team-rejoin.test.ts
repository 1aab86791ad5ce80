/**
 * Leaving a project and joining it again republishes only what the hub lacks: changes never
 * pushed keep their ids, a correction changed while away becomes one change based on the box's
 * version seen before leaving (no conflict with the member's own earlier change), and unchanged
 * corrections are not sent again. Joining another project publishes everything afresh.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeFixture, type StoreFixture } from '../store/store-fixture.js';
import { drawn } from './drawn-box.js';

let fx: StoreFixture;
beforeEach(async () => (fx = await storeFixture()));
afterEach(() => fx.done());

const join = (project = 'p') =>
  fx.store.team.setLink(
    { hub: 'postgresql://a@h/db', project, folder: '/f', member: 'a', role: 'lead' },
    1,
  );

describe('leaving a team project and joining it again', () => {
  it('republishes only what the hub lacks, based on the versions seen before leaving', () => {
    join();
    const kite = fx.store.corrections.put(drawn('kite', 0.1));
    const [pushed] = fx.store.team.outbox(10);
    fx.store.team.markPushed([pushed!.id]);
    fx.store.corrections.put(drawn('owl', 0.5));
    const [waiting] = fx.store.team.outbox(10);
    fx.store.team.unlink();
    // Away: the kite becomes a bird (no change recorded: the library is in no project).
    fx.store.corrections.put({ ...drawn('bird', 0.1), id: kite.id });
    expect(fx.store.team.link()).toBeUndefined();
    join();
    const outbox = fx.store.team.outbox(10);
    expect(outbox).toHaveLength(2);
    // The owl's change was never pushed: it goes with the same id, and is not made again.
    expect(outbox[0]).toEqual(waiting);
    // The bird is based on the kite the hub has: the member's own versions never conflict.
    expect(outbox[1]).toMatchObject({
      box: pushed!.box,
      parents: [pushed!.id],
      state: { label: 'bird' },
    });
    expect(fx.store.team.counts()).toEqual({ pendingPush: 2, conflicts: 0 });
  });

  it('publishes every correction afresh when joining another project', () => {
    join('p');
    fx.store.corrections.put(drawn('kite', 0.1));
    const [first] = fx.store.team.outbox(10);
    fx.store.team.markPushed([first!.id]);
    fx.store.team.unlink();
    join('q');
    const outbox = fx.store.team.outbox(10);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ parents: [], state: { label: 'kite' } });
    expect(outbox[0]!.id).not.toBe(first!.id);
  });
});
