/**
 * A honeypot whose truth reached the hub before it was marked (issue 26 §3): every member then
 * could pull it, and a desktop that synced has shown it. That cannot be taken back, so the lead's
 * report leaves it out of those members' blind honeypot scores and counts it apart; a member
 * added after the marking, and a honeypot marked before its truth was pushed, stay blind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMember } from '../../../../electron/core/team/hub-admin.js';
import { exposedHoneypots } from '../../../../electron/core/team/hub-quality-exposure.js';
import {
  addHoneypots,
  ensureQuality,
  setHoneypotTruth,
} from '../../../../electron/core/team/hub-quality.js';
import { ensureWorkSchema } from '../../../../electron/core/team/hub-work.js';
import { readTeamReport } from '../../../../electron/core/team/team-report-read.js';
import { changeOf, hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const S = 'labeldesk_demo';
const truth = [
  { solution: 'objects', frameIndex: 0, label: 'car', bbox: { x: 0.1, y: 0.1, w: 0.3, h: 0.3 } },
];
const file = (h: string) => ({
  contentHash: h,
  relPath: `${h}.jpg`,
  size: 1,
  kind: 'image' as const,
  width: 1,
  height: 1,
});

beforeAll(async () => {
  hub = await hubRoles('demo', ['alice', 'bob', 'carol']);
  const lead = hub.client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.use((sql) => ensureWorkSchema(sql, S));
  await ensureQuality(lead);
  for (const m of ['alice', 'bob']) await addProjectMember(lead, m, 'annotator');
  await lead.addFiles(['pot-before', 'pot-after'].map(file));
  // pot-before: the lead's version reaches the hub (alice and bob may pull it), then it is marked.
  await lead.push([changeOf('pot-before')]);
  await addHoneypots(lead, ['pot-before']);
  // pot-after: marked first, then the lead's version: hidden from the start.
  await addHoneypots(lead, ['pot-after']);
  await lead.push([changeOf('pot-after')]);
  for (const h of ['pot-before', 'pot-after']) await setHoneypotTruth(lead, h, truth);
  // Carol joins after both were marked: she never could read either truth.
  await addProjectMember(lead, 'carol', 'annotator');
  for (const m of ['alice', 'carol']) {
    await hub.raw(m)`INSERT INTO labeldesk_demo.marks (id, content_hash, solution, reviewed,
      reviewed_by) SELECT gen_random_uuid(), h, 'objects', true, 'person'
      FROM unnest(ARRAY['pot-before', 'pot-after']) h`;
  }
}, 120_000);

afterAll(() => hub?.remove());

describe('honeypots whose truth was out before they were marked', () => {
  it('names the members who may have pulled the truth, per honeypot', async () => {
    const exposed = await exposedHoneypots(hub.client('lead'));
    expect([...exposed].map(([h, ms]) => [h, [...ms]])).toEqual([['pot-before', ['alice', 'bob']]]);
    // An annotator cannot ask (the honeypots are the lead's).
    await expect(exposedHoneypots(hub.client('alice'))).rejects.toMatchObject({
      code: 'hub_refused',
    });
  });

  it("leaves such a file out of that member's blind score, and counts it apart", async () => {
    const report = await readTeamReport(hub.client('lead'));
    const pots = (m: string) => report.members.find((x) => x.member === m)?.honeypots;
    // Each reviewed both, with no box: one miss per file scored.
    expect(pots('alice')).toMatchObject({ files: 1, seen: 1, fn: 1, tp: 0 });
    expect(pots('carol')).toMatchObject({ files: 2, seen: 0, fn: 2, tp: 0 });
    expect(report.honeypotFiles).toBe(2);
  });
});
