/**
 * `labeldesk team sync --watch` keeps a desktop in step while it runs: another member's pushed
 * change is pulled (woken by the hub's NOTIFY), and a person's change saved while it runs is
 * pushed, without anyone running a sync on this desktop.
 */
import { describe, expect, it } from 'vitest';
import { startCli } from '../../support/cli-run.js';
import {
  projectWith,
  modelBox,
  review,
  shown,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let lead: Member;
let bob: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'bob' }], (fx) => {
  [lead, bob] = fx.members as [Member, Member];
});

describe('team sync --watch', () => {
  it("pulls the others' changes as they are pushed and pushes this desktop's as they are saved", async () => {
    await projectWith(lead, bob);
    const watcher = startCli(['team', 'sync', '--watch', '--json'], lead.env);
    try {
      await watcher.waitForOutput(/"event":"synced"/);
      review(bob, (r, id) =>
        r.edit(id('photo0.jpg'), 'objects', {
          kind: 'relabel',
          box: modelBox(bob, 'photo0.jpg', 0),
          label: 'zebra',
        }),
      );
      await teamJson(bob, ['sync']);
      await watcher.waitForOutput(/"event":"sync","pushed":0,"pulled":1/);
      expect(shown(lead, 'photo0.jpg')).toEqual(shown(bob, 'photo0.jpg'));

      review(lead, (r, id) =>
        r.edit(id('photo1.jpg'), 'objects', {
          kind: 'reject',
          box: modelBox(lead, 'photo1.jpg', 0),
        }),
      );
      await watcher.waitForOutput(/"event":"sync","pushed":1,/);
      expect(await teamJson(bob, ['sync'])).toMatchObject({ pulled: 1 });
      expect(shown(bob, 'photo1.jpg')).toEqual(shown(lead, 'photo1.jpg'));
    } finally {
      watcher.child.kill('SIGINT');
    }
    expect(await watcher.exited).toEqual({ code: 0, signal: null });
  });
});
