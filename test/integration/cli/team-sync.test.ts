/**
 * Two members of one team project, each a separate `labeldesk` process with its own home and
 * folder, through a real PostgreSQL hub: edits both ways, a conflict kept and settled, offline
 * and back, and a removed member refused by the database. Edits are made with the review's own
 * service on each member's library between the processes' runs.
 */
import { describe, expect, it } from 'vitest';
import { hasSecretTool, lookupKey } from '../../support/cli-keychain.js';
import type { PgServer } from '../../support/pg-server.js';
import { filesHolding } from '../../support/secrets-in-files.js';
import {
  linkProject,
  modelBox,
  ref,
  review,
  shown,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let server: PgServer;
let lead: Member;
let bob: Member;

/** Relabels photo0's second model box. */
const relabelSecondBox = (m: Member, label: string) =>
  review(m, (r, id) =>
    r.edit(id('photo0.jpg'), 'objects', {
      kind: 'relabel',
      box: modelBox(m, 'photo0.jpg', 1),
      label,
    }),
  );

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'bob' }], (fx) => {
  server = fx.server;
  [lead, bob] = fx.members as [Member, Member];
});

describe('a team project shared by two desktops through a real PostgreSQL hub', () => {
  it('creates the project, keeps the password only in the keychain, and lets a member join', async () => {
    const created = await linkProject(lead, 'create');
    expect(created).toMatchObject({ project: 'demo', member: 'lead', role: 'lead' });
    expect(created.hub).toBe(lead.hub(false));
    expect((await team(lead, ['member', 'add', 'bob'])).code).toBe(0);
    const joined = await linkProject(bob, 'join');
    expect(joined).toMatchObject({ project: 'demo', member: 'bob', role: 'annotator' });
    const found = await filesHolding(lead.home, [lead.password]);
    expect(found.read).toBeGreaterThan(0);
    expect(found.holding).toEqual([]);
    if (hasSecretTool()) {
      expect(await lookupKey(`team-hub ${lead.hub(false)}`)).toBe(lead.password);
    }
    const status = await teamJson(bob, ['status']);
    expect(status).toMatchObject({
      project: 'demo',
      member: 'bob',
      online: true,
      pendingPush: 0,
      pendingPull: 0,
      conflicts: 0,
      files: 2,
    });
  });

  it("brings each member's edits to the other", async () => {
    const moved = { x: 0.25, y: 0.25, w: 0.5, h: 0.5 };
    review(lead, (r, id) => {
      r.edit(id('photo0.jpg'), 'objects', {
        kind: 'move',
        box: modelBox(lead, 'photo0.jpg', 0),
        bbox: moved,
      });
      r.edit(id('photo1.jpg'), 'objects', {
        kind: 'add',
        frameIndex: 0,
        timeMs: null,
        label: 'kite',
        bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.1 },
      });
    });
    expect(shown(bob, 'photo0.jpg')).not.toEqual(shown(lead, 'photo0.jpg'));
    expect((await teamJson(lead, ['status'])).pendingPush).toBe(2);
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pushed: 2, pendingPush: 0 });
    expect(await teamJson(bob, ['sync'])).toMatchObject({ pulled: 2, pendingPull: 0 });
    expect(shown(bob, 'photo0.jpg')).toEqual(shown(lead, 'photo0.jpg'));
    expect(shown(bob, 'photo1.jpg')).toEqual(shown(lead, 'photo1.jpg'));
    expect(shown(bob, 'photo1.jpg').some((b) => b.startsWith('kite accepted'))).toBe(true);

    // Back the other way: bob relabels the kite lead drew.
    review(bob, (r, id) => {
      const kite = r.item(id('photo1.jpg'), 'objects').boxes.find((b) => b.label === 'kite')!;
      r.edit(id('photo1.jpg'), 'objects', { kind: 'relabel', box: ref(kite), label: 'bird' });
    });
    expect(await teamJson(bob, ['sync'])).toMatchObject({ pushed: 1 });
    await teamJson(lead, ['sync']);
    expect(shown(lead, 'photo1.jpg')).toEqual(shown(bob, 'photo1.jpg'));
    expect(shown(lead, 'photo1.jpg').some((b) => b.startsWith('bird accepted'))).toBe(true);
  });

  it('keeps a conflict with both versions, the same on both desktops, until a person settles it', async () => {
    // Both change the same model box without having seen each other's change.
    relabelSecondBox(lead, 'cat');
    relabelSecondBox(bob, 'dog');
    await teamJson(lead, ['sync']);
    await teamJson(bob, ['sync']);
    await teamJson(lead, ['sync']);
    expect((await teamJson(lead, ['status'])).conflicts).toBe(1);
    expect((await teamJson(bob, ['status'])).conflicts).toBe(1);
    // One shared pick is shown on both; neither change was lost.
    expect(shown(lead, 'photo0.jpg')).toEqual(shown(bob, 'photo0.jpg'));
    const labels = shown(lead, 'photo0.jpg').join('\n');
    expect(/cat|dog/.test(labels)).toBe(true);

    // Bob's next change of the box is based on both versions: it settles the conflict everywhere.
    relabelSecondBox(bob, 'fox');
    await teamJson(bob, ['sync']);
    await teamJson(lead, ['sync']);
    expect((await teamJson(lead, ['status'])).conflicts).toBe(0);
    expect((await teamJson(bob, ['status'])).conflicts).toBe(0);
    expect(shown(lead, 'photo0.jpg')).toEqual(shown(bob, 'photo0.jpg'));
    expect(shown(lead, 'photo0.jpg').some((b) => b.startsWith('fox '))).toBe(true);
  });

  it('keeps working offline, queues changes durably, and sends them when the hub is back', async () => {
    server.stop();
    try {
      review(lead, (r, id) =>
        r.edit(id('photo1.jpg'), 'objects', {
          kind: 'reject',
          box: modelBox(lead, 'photo1.jpg', 0),
        }),
      );
      const offline = await teamJson(lead, ['status']);
      expect(offline).toMatchObject({ online: false, pendingPush: 1, pendingPull: null });
      const failed = await team(lead, ['sync']);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/hub_unreachable/);
    } finally {
      server.start();
    }
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pushed: 1, pendingPush: 0 });
    await teamJson(bob, ['sync']);
    expect(shown(bob, 'photo1.jpg')).toEqual(shown(lead, 'photo1.jpg'));
    expect(shown(bob, 'photo1.jpg').some((b) => b.includes(' rejected '))).toBe(true);
  });

  it('refuses a removed member at the database', async () => {
    expect((await team(lead, ['member', 'remove', 'bob'])).code).toBe(0);
    const r = await team(bob, ['sync']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/permission denied.*\(hub_refused\)/);
  });
});
