/**
 * Issue 25, through a real PostgreSQL hub and separate `labeldesk` processes: an annotator who
 * edits a box in conflict between two other members (a change the hub refuses from them as
 * settling others' conflict) is never stuck: the edit goes out as one more version of the box,
 * nothing waits in the outbox, and the lead sees it among the versions to keep.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  modelBox,
  projectWith,
  review,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let lead: Member;
let ann: Member;
let cid: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'ann' }, { name: 'cid' }], (fx) => {
  [lead, ann, cid] = fx.members as [Member, Member, Member];
});

beforeAll(() => projectWith(lead, ann, cid), 300_000);

const relabel = (m: Member, file: string, n: number, label: string) =>
  review(m, (r, id) =>
    r.edit(id(file), 'objects', { kind: 'relabel', box: modelBox(m, file, n), label }),
  );

interface Listed {
  conflicts: { id: string; versions: { member: string; label: string }[] }[];
}

const syncAll = async () => {
  for (const m of [lead, ann, cid, lead, ann, cid]) await teamJson(m, ['sync']);
};

describe('edits of boxes in conflict', () => {
  it("an annotator's edit of others' conflict goes out as one more version", async () => {
    relabel(lead, 'photo0.jpg', 0, 'cup');
    relabel(cid, 'photo0.jpg', 0, 'mug');
    await syncAll();
    expect((await teamJson(ann, ['status'])).conflicts).toBe(1);

    // ann has no version of the box: settling it is the lead's, the edit is ann's own version.
    relabel(ann, 'photo0.jpg', 0, 'bowl');
    const synced = await teamJson<{ pushed: number }>(ann, ['sync']);
    expect(synced.pushed).toBe(1);
    expect(await teamJson(ann, ['status'])).toMatchObject({ pendingPush: 0, conflicts: 1 });
    await teamJson(lead, ['sync']);
    const listed = await teamJson<Listed>(lead, ['conflicts']);
    expect(listed.conflicts).toHaveLength(1);
    const versions = listed.conflicts[0]!.versions.map((v) => `${v.member} ${v.label}`);
    expect(versions).toContain('ann bowl');
    expect(versions).toHaveLength(2);

    // The lead keeps ann's: every desktop ends with it and nothing open.
    await teamJson(lead, ['resolve', '--all', '--keep', 'ann']);
    await syncAll();
    for (const m of [lead, ann, cid]) {
      expect(await teamJson(m, ['status'])).toMatchObject({ pendingPush: 0, conflicts: 0 });
      const labels = review(m, (r, id) =>
        r.item(id('photo0.jpg'), 'objects').boxes.map((b) => b.label),
      );
      expect(labels).toContain('bowl');
    }
  }, 300_000);
});
