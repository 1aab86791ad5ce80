/**
 * A lead and two annotators split a project without collisions (issue 26 §2): separate
 * `labeldesk` processes and homes, one real hub. Claims made at the same moment never share a
 * file; the lead's assignment goes first to its member; a released file goes to the next
 * claimer; a file marked reviewed leaves its claim and nobody is handed it again; the lead takes
 * work back; the hub refuses an annotator the lead's verbs.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { distinctJpegs } from '../../support/cli-media.js';
import { runCli } from '../../support/cli-run.js';
import {
  projectWith,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let lead: Member;
let ann: Member;
let cid: Member;

interface Claim {
  claimed: { relPath: string; path: string | null; contentHash: string }[];
  holding: { relPath: string; path: string | null; contentHash: string }[];
  leaseSeconds: number;
}

useTeamFixture(
  [
    { name: 'lead', createSchema: true, label: false },
    { name: 'ann', label: false },
    { name: 'cid', label: false },
  ],
  (fx) => {
    [lead, ann, cid] = fx.members as [Member, Member, Member];
  },
);

const claim = (m: Member, n: number) => teamJson<Claim>(m, ['claim', String(n)]);
const paths = (files: { relPath: string }[]) => files.map((f) => f.relPath).sort();
const SUB = Array.from({ length: 8 }, (_, i) => `sub/pic${i}.jpg`);
const ROOT = ['photo0.jpg', 'photo1.jpg'];

describe('team claim, release, assign and take-back', () => {
  it('splits a project between a lead and two annotators without collisions', async () => {
    // The same ten pictures in each member's folder (eight more under sub/), read by `plan`.
    for (const m of [lead, ann, cid]) {
      await mkdir(join(m.folder, 'sub'));
      await distinctJpegs(join(m.folder, 'sub'), 8, 'pic', 10);
      expect((await runCli(['plan', m.folder, '--json'], m.env)).code).toBe(0);
    }
    await projectWith(lead, ann, cid);
    expect(await teamJson(lead, ['lease', '1h'])).toEqual({ leaseSeconds: 3600 });
    expect(await teamJson(lead, ['assign', 'ann', '--folder', 'sub'])).toEqual({ assigned: 8 });

    // Three desktops claim at once: ann's assignment is hers; the two others share the rest.
    const [a, c, l] = await Promise.all([claim(ann, 5), claim(cid, 5), claim(lead, 5)]);
    expect(paths(a.claimed).every((p) => p.startsWith('sub/'))).toBe(true);
    expect(a.claimed).toHaveLength(5);
    expect([...paths(c.claimed), ...paths(l.claimed)].sort()).toEqual(ROOT);
    // Each member's files are their own copies (matched by content, at their own path).
    expect(a.claimed.every((f) => f.path?.startsWith(ann.folder))).toBe(true);
    const more = await claim(ann, 5);
    expect(more.claimed).toHaveLength(3);
    expect(paths(more.holding)).toEqual(SUB);
    expect((await claim(cid, 5)).claimed).toEqual([]);

    // A released file goes to the next claimer; one assigned to ann goes back to her only.
    const [holder, other] = c.claimed.length > 0 ? [cid, lead] : [lead, cid];
    const root = (c.claimed.length > 0 ? c : l).claimed[0]!;
    expect(await teamJson(holder, ['release', root.relPath])).toEqual({ released: 1, notHeld: [] });
    expect(paths((await claim(other, 5)).claimed)).toEqual([root.relPath]);
    const given = more.holding[0]!;
    expect(await teamJson(ann, ['release', given.path!])).toEqual({ released: 1, notHeld: [] });
    expect((await claim(cid, 5)).claimed).toEqual([]);
    expect(paths((await claim(ann, 5)).claimed)).toEqual([given.relPath]);

    // Marked reviewed and synced: it leaves ann's claim, and nobody is handed it again.
    const done = more.holding[1]!;
    const store = openLibraryStore(join(ann.home, 'library.sqlite'));
    try {
      store.reviewed.markReviewed([store.media.byPath(done.path!)!.id], 'objects', 'person');
    } finally {
      store.close();
    }
    await teamJson(ann, ['sync']);
    const after = await teamJson<Claim>(ann, ['work']);
    expect(paths(after.holding)).not.toContain(done.relPath);
    expect(after.holding).toHaveLength(7);

    // The lead takes back ann's sub/ work: it is anyone's, the reviewed file excepted.
    expect(await teamJson(lead, ['take-back', 'ann', '--folder', 'sub'])).toEqual({
      takenBack: 7,
    });
    expect((await teamJson<Claim>(ann, ['work'])).holding).toEqual([]);
    const rest = await claim(cid, 20);
    expect(paths(rest.claimed)).toEqual(SUB.filter((p) => p !== done.relPath));
    // About thirty `labeldesk` processes: minutes on a loaded 2-core machine.
  }, 300_000);

  it("refuses an annotator the lead's verbs, in the database", async () => {
    for (const args of [
      ['lease', '1m'],
      ['assign', 'cid', '--folder', 'sub'],
      ['take-back', 'cid'],
    ]) {
      const r = await team(ann, [...args, '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/hub refused: permission denied|row-level security|hub_refused/);
    }
    // cid still holds what ann tried to take back.
    expect((await teamJson<Claim>(cid, ['work'])).holding.length).toBeGreaterThan(0);
  });
});
