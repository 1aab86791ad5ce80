/**
 * The work's scheduling, as an annotator with psql sees it (issue 26 §2–§3): a claim runs inside
 * one SECURITY DEFINER function, so an annotator reads no slot number, sharing, assignment or
 * wanted reviews, nor the overlap share: nothing that tells an overlap file or a honeypot from
 * another. Claims still hand such a file to distinct members. An older hub (the rights of before)
 * loses them when its lead's desktop upgrades it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMember } from '../../../../electron/core/team/hub-admin.js';
import {
  addHoneypots,
  ensureQuality,
  setOverlapShare,
} from '../../../../electron/core/team/hub-quality.js';
import { WORK_SCHEMA_VERSION } from '../../../../electron/core/team/hub-work-schema.js';
import { claimWork, ensureWorkSchema, myWork } from '../../../../electron/core/team/hub-work.js';
import { refreshWantedReviews } from '../../../../electron/core/team/quality-wanted-reviews.js';
import { hubFile as file, hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const S = 'labeldesk_demo';
const denied = /permission denied/;

/** What a person with psql tries, as `role`, to learn which files are wanted more than once. */
const peeks = [
  'SELECT slot FROM labeldesk_demo.work',
  'SELECT shared FROM labeldesk_demo.work',
  'SELECT assigned_to FROM labeldesk_demo.work',
  'SELECT * FROM labeldesk_demo.work_files',
  'SELECT wanted_reviews FROM labeldesk_demo.work_files',
  "SELECT labeldesk_demo.first_open_slot('hash-0', 1, 'alice')",
];

beforeAll(async () => {
  hub = await hubRoles('demo', ['alice', 'bob', 'carol']);
  const lead = hub.client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.use((sql) => ensureWorkSchema(sql, S));
  await ensureQuality(lead);
  for (const m of ['alice', 'bob']) await addProjectMember(lead, m, 'annotator');
  await lead.addFiles([0, 1, 2, 3].map(file));
  // hash-0 a honeypot (both annotators), every other file an overlap file (a share of 100 %).
  await addHoneypots(lead, ['hash-0']);
  await setOverlapShare(lead, 1);
  await refreshWantedReviews(lead);
}, 120_000);

afterAll(() => hub?.remove());

describe("the work's scheduling, hidden from annotators", () => {
  it('refuses an annotator every column and table that tells blind files apart', async () => {
    const wanted = await hub.raw('lead')<{ n: number }[]>`
      SELECT wanted_reviews AS n FROM labeldesk_demo.work_files ORDER BY content_hash`;
    expect(wanted.map((w) => w.n)).toEqual([2, 2, 2, 2]);
    for (const statement of peeks) {
      await expect(hub.raw('alice').unsafe(statement), statement).rejects.toThrow(denied);
    }
    // The overlap share, while it is on: no row (it is only readable while the overlap is off).
    expect(
      (await hub.raw('alice')`SELECT overlap_share FROM labeldesk_demo.quality_settings`).length,
    ).toBe(0);
    expect(
      (await hub.raw('lead')`SELECT overlap_share FROM labeldesk_demo.quality_settings`)[0],
    ).toEqual({ overlap_share: 1 });
    // Rows: one per open file, as for a file wanted once (no second slot to count).
    const rows = await hub.raw('alice')<{ content_hash: string }[]>`
      SELECT content_hash FROM labeldesk_demo.work ORDER BY content_hash`;
    expect(rows.map((r) => r.content_hash)).toEqual(['hash-0', 'hash-1', 'hash-2', 'hash-3']);
  });

  it('still hands a file wanted twice to two distinct members through claim_work', async () => {
    const alice = await claimWork(hub.raw('alice'), `"${S}"`, 10);
    expect(alice.map((w) => w.contentHash).sort()).toEqual([
      'hash-0',
      'hash-1',
      'hash-2',
      'hash-3',
    ]);
    expect(await claimWork(hub.raw('alice'), `"${S}"`, 10)).toEqual([]);
    // Bob gets the second slots; Alice sees her own slots only, Bob's nowhere.
    const bob = await claimWork(hub.raw('bob'), `"${S}"`, 10);
    expect(bob.map((w) => w.contentHash).sort()).toEqual(['hash-0', 'hash-1', 'hash-2', 'hash-3']);
    const seen = await hub.raw('alice')<{ holder: string }[]>`
      SELECT holder FROM labeldesk_demo.work`;
    expect(seen.map((r) => r.holder)).toEqual(['alice', 'alice', 'alice', 'alice']);
    expect((await myWork(hub.raw('bob'), `"${S}"`)).length).toBe(4);
    // A role that is no member (carol has no rights in the project) cannot claim.
    await expect(hub.raw('carol')`SELECT * FROM labeldesk_demo.claim_work(1)`).rejects.toThrow(
      denied,
    );
  });

  it("takes an older hub's rights back when its lead upgrades it", async () => {
    const lead = hub.raw('lead');
    // The rights of before: every column of the work, the wanted reviews, the overlap share.
    await lead.unsafe(`
      GRANT SELECT ON labeldesk_demo.work, labeldesk_demo.work_files,
        labeldesk_demo.quality_settings TO alice;
      DROP POLICY members_read ON labeldesk_demo.quality_settings;
      CREATE POLICY members_read ON labeldesk_demo.quality_settings FOR SELECT
        USING (labeldesk_demo.is_member());
      COMMENT ON TABLE labeldesk_demo.work IS 'labeldesk work 3';
      COMMENT ON TABLE labeldesk_demo.quality_hidden IS 'labeldesk quality hidden 2';`);
    expect(
      (await hub.raw('alice')`SELECT overlap_share FROM labeldesk_demo.quality_settings`).length,
    ).toBe(1);
    const client = hub.client('lead');
    expect(await client.use((sql) => ensureWorkSchema(sql, S))).toBe(true);
    expect(await ensureQuality(client)).toBe(true);
    for (const statement of peeks) {
      await expect(hub.raw('alice').unsafe(statement), statement).rejects.toThrow(denied);
    }
    expect(
      (await hub.raw('alice')`SELECT overlap_share FROM labeldesk_demo.quality_settings`).length,
    ).toBe(0);
    const [stamp] = await lead<{ v: string }[]>`
      SELECT obj_description('labeldesk_demo.work'::regclass, 'pg_class') AS v`;
    expect(stamp?.v).toBe(WORK_SCHEMA_VERSION);
  });
});
