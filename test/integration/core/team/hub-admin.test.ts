/**
 * A member added as lead administers the project (issue 26 §1) through the owner's SECURITY
 * DEFINER functions: on its own login it adds, re-roles and removes members and changes the
 * settings; an annotator (or a non-member) calling the functions with the bare driver, as with
 * psql, is refused by the database; the functions pin search_path and are not PUBLIC's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addProjectMember,
  ensureAdmin,
  removeProjectMember,
} from '../../../../electron/core/team/hub-admin.js';
import { ensureQuality, setOverlapShare } from '../../../../electron/core/team/hub-quality.js';
import { ensureWorkSchema, setLeaseSeconds } from '../../../../electron/core/team/hub-work.js';
import { hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const S = 'labeldesk_demo';
const count = async (role: string) =>
  (await hub.raw(role)<{ n: number }[]>`SELECT count(*)::int AS n FROM labeldesk_demo.files`)[0]?.n;
const members = async () =>
  Object.fromEntries(
    (
      await hub.raw('lead')<{ role_name: string; role: string }[]>`
        SELECT role_name, role FROM labeldesk_demo.members ORDER BY role_name`
    ).map((r) => [r.role_name, r.role]),
  );

beforeAll(async () => {
  hub = await hubRoles('demo', ['lead2', 'alice', 'bob', 'carol']);
  const lead = hub.client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.use((sql) => ensureWorkSchema(sql, S));
  await ensureQuality(lead);
  await lead.addFiles([
    { contentHash: 'hash-a', relPath: 'a.jpg', size: 1, kind: 'image', width: 1, height: 1 },
  ]);
}, 120_000);

afterAll(() => hub?.remove());

describe('a lead who did not create the project', () => {
  it('adds, re-roles and removes members on its own login, and changes the settings', async () => {
    await addProjectMember(hub.client('lead'), 'lead2', 'lead');
    const lead2 = hub.client('lead2');
    await addProjectMember(lead2, 'alice', 'annotator');
    await addProjectMember(lead2, 'bob', 'annotator');
    expect(await members()).toEqual({
      lead: 'lead',
      lead2: 'lead',
      alice: 'annotator',
      bob: 'annotator',
    });
    expect(await count('alice')).toBe(1);
    // Alice has every right an annotator added by the owner has: she claims work.
    expect(
      (await hub.raw('alice')`SELECT claimed_hash FROM labeldesk_demo.claim_work(1)`).length,
    ).toBe(1);
    expect(
      (
        await hub.raw('lead')`SELECT added_by FROM labeldesk_demo.members WHERE role_name = 'alice'`
      )[0]?.added_by,
    ).toBe('lead2');

    // Settings: the lease and the overlap, as the lead2 role.
    await lead2.use((sql, s) => setLeaseSeconds(sql, s, 600));
    await setOverlapShare(lead2, 0.25);
    const [p] = await hub.raw('lead')`SELECT settings, (SELECT overlap_share
      FROM labeldesk_demo.quality_settings) AS share FROM labeldesk_demo.project`;
    expect(p).toEqual({ settings: { leaseSeconds: 600 }, share: 0.25 });

    // Removed: no longer reaches the schema; her held work goes back to the pool.
    expect(await removeProjectMember(lead2, 'alice')).toBe(true);
    expect(await removeProjectMember(lead2, 'alice')).toBe(false);
    await expect(count('alice')).rejects.toThrow(/permission denied/);
    const held = await hub.raw('lead')`SELECT count(*)::int AS n FROM labeldesk_demo.work
      WHERE holder = 'alice'`;
    expect(held[0]?.n).toBe(0);
    // An unknown role is named; the creator stays the lead.
    await expect(addProjectMember(lead2, 'nobody', 'annotator')).rejects.toMatchObject({
      code: 'unknown_role',
    });
    await expect(removeProjectMember(lead2, 'lead')).rejects.toMatchObject({
      code: 'hub_refused',
    });
    expect((await members()).lead).toBe('lead');
  });

  it('refuses an annotator and a non-member who call the functions directly', async () => {
    const bob = hub.raw('bob');
    await expect(bob`SELECT labeldesk_demo.admin_set_member('carol', 'lead')`).rejects.toThrow(
      /only a lead of this project/,
    );
    await expect(bob`SELECT labeldesk_demo.admin_set_member('bob', 'lead')`).rejects.toThrow(
      /only a lead of this project/,
    );
    await expect(bob`SELECT labeldesk_demo.admin_remove_member('lead2')`).rejects.toThrow(
      /only a lead of this project/,
    );
    await expect(addProjectMember(hub.client('bob'), 'carol', 'annotator')).rejects.toMatchObject({
      code: 'hub_refused',
    });
    await expect(
      hub.raw('carol')`SELECT labeldesk_demo.admin_set_member('carol', 'lead')`,
    ).rejects.toThrow(/permission denied/);
    expect(await members()).toEqual({ lead: 'lead', lead2: 'lead', bob: 'annotator' });
  });

  it('pins search_path and grants EXECUTE to members only', async () => {
    const rows = await hub.raw('lead')<
      {
        name: string;
        definer: boolean;
        config: string[];
        pub: boolean;
        carol: boolean;
        bob: boolean;
      }[]
    >`SELECT proname AS name, prosecdef AS definer, proconfig AS config,
        has_function_privilege('public', oid, 'EXECUTE') AS pub,
        has_function_privilege('carol', oid, 'EXECUTE') AS carol,
        has_function_privilege('bob', oid, 'EXECUTE') AS bob
      FROM pg_proc WHERE pronamespace = 'labeldesk_demo'::regnamespace
        AND proname LIKE 'admin_%' ORDER BY proname`;
    expect(rows).toEqual(
      ['admin_remove_member', 'admin_set_member'].map((name) => ({
        name,
        definer: true,
        config: ['search_path=pg_catalog, pg_temp'],
        pub: false,
        carol: false,
        bob: true,
      })),
    );
    // Made once; made again only when the code's grants change.
    expect(await ensureAdmin(hub.client('lead'))).toBe(false);
    expect(await ensureAdmin(hub.client('lead2'))).toBe(false);
  });
});
