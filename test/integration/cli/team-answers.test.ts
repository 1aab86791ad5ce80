/**
 * The team pays once for a file: a member whose library has the project's files but no answer
 * takes the team's answers at `team sync`, and `labeldesk label` then sends nothing and spends
 * nothing, showing the same boxes as the member who paid.
 */
import { describe, expect, it } from 'vitest';
import { cliJson } from '../../support/cli-run.js';
import {
  linkProject,
  shown,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let lead: Member;
let carol: Member;

useTeamFixture(
  [
    { name: 'lead', createSchema: true },
    { name: 'carol', label: false },
  ],
  (fx) => {
    [lead, carol] = fx.members as [Member, Member];
  },
);

describe("the model's answers shared through the hub", () => {
  it('lets a member take the answers another paid for, spending nothing', async () => {
    await linkProject(lead, 'create');
    expect((await team(lead, ['member', 'add', 'carol'])).code).toBe(0);
    expect(await teamJson(lead, ['sync'])).toMatchObject({ answersOffered: 2, answersTaken: 0 });
    await linkProject(carol, 'join');
    expect(await teamJson(carol, ['sync'])).toMatchObject({
      answersOffered: 0,
      answersTaken: 2,
      labelledFiles: 2,
    });
    const run = await cliJson(['label', carol.folder, '--yes'], carol.env);
    expect(run).toMatchObject({ labelled: 0, framesSpent: 0 });
    for (const file of ['photo0.jpg', 'photo1.jpg']) {
      expect(shown(carol, file).length).toBeGreaterThan(0);
      expect(shown(carol, file)).toEqual(shown(lead, file));
    }
    // Offered once: a second sync sends nothing again.
    expect(await teamJson(lead, ['sync'])).toMatchObject({ answersOffered: 0 });
  });
});
