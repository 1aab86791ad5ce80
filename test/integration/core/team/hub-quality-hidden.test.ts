/**
 * What an annotator connecting with the bare driver (as with psql) can learn of blind files
 * (issue 26 §3): not which files are honeypots or overlap files (no function answers it for
 * them, no table of theirs names them), and not the others' changes of a blind file, whether the
 * honeypot was marked before its truth reached the hub or after. Their own changes stay theirs;
 * a lead's report read sees every member's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMember } from '../../../../electron/core/team/hub-admin.js';
import {
  addHoneypots,
  changesOf,
  ensureQuality,
  recordSettlement,
  setOverlapShare,
} from '../../../../electron/core/team/hub-quality.js';
import { ensureWorkSchema } from '../../../../electron/core/team/hub-work.js';
import { changeOf, hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const S = 'labeldesk_demo';
/** Whose changes of a file `role` reads with the bare driver. */
const seen = async (role: string, hash: string) =>
  (
    await hub.raw(role)<{ member: string }[]>`SELECT member FROM labeldesk_demo.changes
      WHERE payload->>'contentHash' = ${hash} ORDER BY seq`
  ).map((r) => r.member);

beforeAll(async () => {
  hub = await hubRoles('demo', ['alice', 'bob']);
  const lead = hub.client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.use((sql) => ensureWorkSchema(sql, S));
  await ensureQuality(lead);
  for (const m of ['alice', 'bob']) await addProjectMember(lead, m, 'annotator');
}, 120_000);

afterAll(() => hub?.remove());

describe('blind files, as an annotator with psql sees them', () => {
  it('hides a honeypot truth pushed after it was marked, and one pushed before', async () => {
    const lead = hub.client('lead');
    // Marked first, then the truth.
    await addHoneypots(lead, ['hash-first']);
    await lead.push([changeOf('hash-first')]);
    // The truth first (every member reads it then), then marked.
    await lead.push([changeOf('hash-later')]);
    expect(await seen('alice', 'hash-later')).toEqual(['lead']);
    await addHoneypots(lead, ['hash-later']);
    for (const h of ['hash-first', 'hash-later']) {
      expect(await seen('alice', h)).toEqual([]);
      expect(await seen('bob', h)).toEqual([]);
      // The client's pull reads the same log.
      expect((await hub.client('bob').pull(0, 100)).filter((c) => c.contentHash === h)).toEqual([]);
    }
    // An annotator's own review of a honeypot is theirs alone; the lead's report reads all.
    await hub.client('alice').push([changeOf('hash-later')]);
    expect(await seen('alice', 'hash-later')).toEqual(['alice']);
    expect(await seen('bob', 'hash-later')).toEqual([]);
    expect((await changesOf(lead, ['hash-later'])).map((c) => c.member)).toEqual(['lead', 'alice']);
    expect(await seen('lead', 'hash-later')).toEqual(['lead']);
  });

  it('hides an open overlap file until it is settled, whenever its changes came', async () => {
    const lead = hub.client('lead');
    await hub.client('alice').push([changeOf('hash-overlap')]);
    expect(await seen('bob', 'hash-overlap')).toEqual(['alice']);
    await setOverlapShare(lead, 1);
    expect(await seen('bob', 'hash-overlap')).toEqual([]);
    await hub.client('bob').push([changeOf('hash-overlap')]);
    expect(await seen('alice', 'hash-overlap')).toEqual(['alice']);
    await recordSettlement(lead, 'hash-overlap', 'alice');
    expect(await seen('bob', 'hash-overlap')).toEqual(['alice', 'bob']);
    await setOverlapShare(lead, 0);
  });

  it('answers no annotator which files are blind or honeypots', async () => {
    const alice = hub.raw('alice');
    const denied = /permission denied/;
    for (const q of [
      alice`SELECT labeldesk_demo.quality_honeypot_hashes()`,
      alice`SELECT labeldesk_demo.quality_blind('hash-first')`,
      alice`SELECT labeldesk_demo.quality_wanted_reviews('hash-first')`,
      alice`SELECT labeldesk_demo.quality_any_blind()`,
      alice`SELECT * FROM labeldesk_demo.quality_honeypots`,
      alice`SELECT content_hash FROM labeldesk_demo.quality_hidden`,
      alice`SELECT member FROM labeldesk_demo.quality_hidden`,
      alice`SELECT labeldesk_demo.quality_hide_all()`,
      alice`INSERT INTO labeldesk_demo.quality_hidden VALUES (1, 'bob', 'x')`,
      alice`DELETE FROM labeldesk_demo.quality_hidden`,
    ]) {
      await expect(q).rejects.toThrow(denied);
    }
    // The seq of others' hidden changes (no file, no member): what the log's policy reads.
    const seqs = await alice<{ seq: string }[]>`SELECT seq FROM labeldesk_demo.quality_hidden`;
    expect(seqs.length).toBeGreaterThan(0);
    const own = await alice<{ seq: string }[]>`SELECT seq FROM labeldesk_demo.changes
      WHERE member = 'alice'`;
    expect(seqs.map((r) => r.seq).filter((s) => own.some((o) => o.seq === s))).toEqual([]);
    // A lead still reads them (work splits and the report use them).
    const [row] = await hub.raw('lead')`SELECT labeldesk_demo.quality_blind('hash-first') AS b`;
    expect(row?.b).toBe(true);
  });
});
