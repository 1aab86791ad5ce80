/**
 * What keeps a claim cheap (issue 26 §2: ≤ 50 ms p95 with 20 claimers, team-claims bench), held
 * on a hub made before it and upgraded by its lead's desktop: claim_work plans once per session
 * (a custom plan per call cost more than the claim), a member's slots are found through the one
 * unique index (no second index to write per claimed slot), and the files' read policy checks
 * membership once per statement, not per path a claim reads. Claims stay one per member and file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMember } from '../../../../electron/core/team/hub-admin.js';
import { claimWork, ensureWorkSchema } from '../../../../electron/core/team/hub-work.js';
import { hubFile as file, hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const S = 'labeldesk_cost';

beforeAll(async () => {
  hub = await hubRoles('cost', ['alice', 'bob']);
  const lead = hub.client('lead');
  await lead.createProject('cost', '/data/cost');
  await lead.use((sql) => ensureWorkSchema(sql, S));
  for (const m of ['alice', 'bob']) await addProjectMember(lead, m, 'annotator');
  await lead.addFiles([0, 1, 2, 3, 4, 5].map(file));
}, 120_000);

afterAll(() => hub?.remove());

async function costState() {
  const lead = hub.raw('lead');
  const [fn] = await lead<{ config: string[] | null }[]>`
    SELECT proconfig AS config FROM pg_proc WHERE oid = 'labeldesk_cost.claim_work(integer)'::regprocedure`;
  const indexes = await lead<{ name: string }[]>`
    SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'labeldesk_cost' AND tablename = 'work'
    ORDER BY indexname`;
  const [policy] = await lead<{ qual: string }[]>`
    SELECT pg_get_expr(polqual, polrelid) AS qual FROM pg_policy
    WHERE polrelid = 'labeldesk_cost.files'::regclass AND polname = 'members_read'`;
  return { config: fn?.config ?? [], indexes: indexes.map((i) => i.name), policy: policy?.qual };
}

describe('a claim kept cheap', () => {
  it('holds on a hub of before once its lead upgrades it, and claims stay one per file', async () => {
    // The hub as it was: plans per call, two indexes on the holder, the check on every row.
    await hub.raw('lead').unsafe(`
      ALTER FUNCTION ${S}.claim_work(integer) RESET plan_cache_mode;
      DROP INDEX ${S}.work_member_slots;
      CREATE UNIQUE INDEX work_one_slot_per_member ON ${S}.work (content_hash, holder);
      CREATE INDEX work_held ON ${S}.work (holder) WHERE holder IS NOT NULL AND NOT done;
      ALTER POLICY members_read ON ${S}.files USING (${S}.is_member());
      COMMENT ON TABLE ${S}.work IS 'labeldesk work 4';`);
    const before = await costState();
    expect(before.config).not.toContain('plan_cache_mode=force_generic_plan');
    expect(before.policy).not.toMatch(/SELECT/);

    expect(await hub.client('lead').use((sql) => ensureWorkSchema(sql, S))).toBe(true);
    const after = await costState();
    expect(after.config).toContain('plan_cache_mode=force_generic_plan');
    expect(after.indexes).toContain('work_member_slots');
    expect(after.indexes).not.toContain('work_held');
    expect(after.indexes).not.toContain('work_one_slot_per_member');
    expect(after.policy).toMatch(/SELECT labeldesk_cost\.is_member\(\)/);

    // Many calls on one session (past the plan cache's five custom plans): no file twice.
    const alice = hub.raw('alice');
    const bob = hub.raw('bob');
    const got: string[] = [];
    for (let i = 0; i < 6; i++) {
      for (const sql of [alice, bob])
        got.push(...(await claimWork(sql, S, 1)).map((w) => w.contentHash));
    }
    expect(got.sort()).toEqual([0, 1, 2, 3, 4, 5].map((n) => `hash-${n}`));
  });
});
