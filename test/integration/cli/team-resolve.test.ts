/**
 * Conflicts settled by a person, through a real PostgreSQL hub and separate `labeldesk`
 * processes: `team conflicts` lists both versions with who and when, an annotator settles only
 * a box with a version of theirs, a lead settles the rest in bulk, and every desktop ends with
 * the kept versions and no open conflict.
 */
import { describe, expect, it } from 'vitest';
import {
  modelBox,
  projectWith,
  review,
  shown,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let lead: Member;
let ann: Member;
let cid: Member;

const relabel = (m: Member, file: string, n: number, label: string) =>
  review(m, (r, id) =>
    r.edit(id(file), 'objects', { kind: 'relabel', box: modelBox(m, file, n), label }),
  );

interface Listed {
  conflicts: {
    id: string;
    path: string | null;
    canResolve: boolean;
    versions: { member: string; label: string; mine: boolean; at: number }[];
  }[];
}

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'ann' }, { name: 'cid' }], (fx) => {
  [lead, ann, cid] = fx.members as [Member, Member, Member];
});

const syncAll = async () => {
  for (const m of [lead, ann, cid, lead, ann, cid]) await teamJson(m, ['sync']);
};

describe('team conflicts and team resolve', () => {
  it('lists both versions and lets each person settle what is theirs to settle', async () => {
    await projectWith(lead, ann, cid);
    // photo0 box 0: ann and cid; photo1 box 0: ann and cid; photo0 box 1: lead and cid.
    relabel(ann, 'photo0.jpg', 0, 'cat');
    relabel(cid, 'photo0.jpg', 0, 'dog');
    relabel(ann, 'photo1.jpg', 0, 'car');
    relabel(cid, 'photo1.jpg', 0, 'bus');
    relabel(lead, 'photo0.jpg', 1, 'cup');
    relabel(cid, 'photo0.jpg', 1, 'mug');
    await syncAll();
    const listed = await teamJson<Listed>(ann, ['conflicts']);
    expect(listed.conflicts).toHaveLength(3);
    const first = listed.conflicts.find((c) =>
      c.versions.some((v) => v.label === 'cat' && v.mine),
    )!;
    expect(first.path).toMatch(/ann-copy.set.photo0\.jpg$/);
    expect(first.versions.map((v) => `${v.member} ${v.label}`).sort()).toEqual([
      'ann cat',
      'cid dog',
    ]);
    const leadsBox = listed.conflicts.find((c) => c.versions.some((v) => v.member === 'lead'))!;
    expect(leadsBox.canResolve).toBe(false);
    const text = await team(ann, ['conflicts']);
    expect(text.stdout).toContain(first.id);
    expect(text.stdout).toMatch(/ann \(you\): cat \(pending\)/);

    // ann may not settle the box of lead and cid; ann keeps cid's dog on photo0.
    const refused = await team(ann, ['resolve', leadsBox.id, '--keep', 'mine']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/not settled, none of its versions is yours/);
    expect(await teamJson(ann, ['resolve', first.id, '--keep', 'theirs'])).toMatchObject({
      resolved: [{ id: first.id, member: 'cid' }],
      skipped: [],
    });
    expect((await team(ann, ['resolve', '--keep', 'mine'])).code).toBe(2);

    // The lead settles the two left in bulk, keeping cid's versions.
    await syncAll();
    expect((await teamJson(lead, ['status'])).conflicts).toBe(2);
    const bulk = await teamJson<{ resolved: unknown[] }>(lead, [
      'resolve',
      '--all',
      '--keep',
      'cid',
    ]);
    expect(bulk.resolved).toHaveLength(2);
    await syncAll();
    for (const m of [lead, ann, cid]) {
      expect((await teamJson(m, ['status'])).conflicts).toBe(0);
      expect((await teamJson<Listed>(m, ['conflicts'])).conflicts).toEqual([]);
    }
    for (const file of ['photo0.jpg', 'photo1.jpg']) {
      expect(shown(ann, file)).toEqual(shown(lead, file));
      expect(shown(cid, file)).toEqual(shown(lead, file));
    }
    const labels = [...shown(lead, 'photo0.jpg'), ...shown(lead, 'photo1.jpg')].join('\n');
    expect(labels).toMatch(/^dog /m);
    expect(labels).toMatch(/^mug /m);
    expect(labels).toMatch(/^bus /m);
    expect(labels).not.toMatch(/^(cat|cup|car) /m);
  });
});
