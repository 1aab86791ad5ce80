/**
 * A lead's settlement the hub did not receive (it went away after the settling was worked out)
 * waits in the library and is recorded on the next sync, once the hub is back (issue 26 §3): the
 * file is then settled in the hub and blind no more, and nothing waits any longer.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMember } from '../../../../electron/core/team/hub-admin.js';
import { ensureQuality, setOverlapShare } from '../../../../electron/core/team/hub-quality.js';
import { ensureWorkSchema } from '../../../../electron/core/team/hub-work.js';
import {
  holdSettlements,
  pendingSettlements,
  recordPendingSettlements,
} from '../../../../electron/core/team/pending-settlements.js';
import { hubRoles, type HubRoles } from '../../../support/hub-roles.js';
import { storeFixture, type StoreFixture } from '../../../unit/core/store/store-fixture.js';

let hub: HubRoles;
let lib: StoreFixture;
const S = 'labeldesk_demo';
const seenByBob = async () =>
  (
    await hub.raw('bob')<{ member: string }[]>`SELECT member FROM labeldesk_demo.changes
      WHERE payload->>'contentHash' = 'hash-o'`
  ).map((r) => r.member);

beforeAll(async () => {
  hub = await hubRoles('demo', ['alice', 'bob']);
  const lead = hub.client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.use((sql) => ensureWorkSchema(sql, S));
  await ensureQuality(lead);
  for (const m of ['alice', 'bob']) await addProjectMember(lead, m, 'annotator');
  await setOverlapShare(lead, 1);
  await hub.client('alice').push([
    {
      id: randomUUID(),
      box: randomUUID(),
      contentHash: 'hash-o',
      solution: 'objects',
      parents: [],
      state: null,
      at: 1,
    },
  ]);
  lib = await storeFixture();
}, 120_000);

afterAll(async () => {
  await lib?.done();
  await hub?.remove();
});

describe("a lead's settlement made while the hub is away", () => {
  it('waits locally and is recorded on the next sync', async () => {
    expect(await seenByBob()).toEqual([]);
    holdSettlements(lib.store, 'demo', [{ contentHash: 'hash-o', kept: 'alice' }]);
    hub.server.stop();
    try {
      await expect(
        recordPendingSettlements(lib.store, hub.client('lead'), 'demo'),
      ).rejects.toMatchObject({ code: 'hub_unreachable' });
    } finally {
      hub.server.start();
    }
    // Kept across the failure (and a reopened library).
    expect(pendingSettlements(lib.reopen(), 'demo')).toEqual([
      { contentHash: 'hash-o', kept: 'alice' },
    ]);
    expect(await recordPendingSettlements(lib.store, hub.client('lead'), 'demo')).toBe(1);
    expect(pendingSettlements(lib.store, 'demo')).toEqual([]);
    const [row] = await hub.raw('lead')`SELECT kept_member, settled_by
      FROM labeldesk_demo.quality_settlements WHERE content_hash = 'hash-o'`;
    expect(row).toEqual({ kept_member: 'alice', settled_by: 'lead' });
    expect(await seenByBob()).toEqual(['alice']);
    expect(await recordPendingSettlements(lib.store, hub.client('lead'), 'demo')).toBe(0);
  });

  it('drops a waiting settlement the database refuses (the role is no lead), saying so', async () => {
    holdSettlements(lib.store, 'demo', [{ contentHash: 'hash-o', kept: 'bob' }]);
    await expect(
      recordPendingSettlements(lib.store, hub.client('alice'), 'demo'),
    ).rejects.toMatchObject({ code: 'hub_refused' });
    expect(pendingSettlements(lib.store, 'demo')).toEqual([]);
  });
});
