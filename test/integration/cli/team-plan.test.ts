/**
 * `labeldesk plan` in a team project counts what the team already holds: a member whose library
 * has the project's files but no answers plans to pay nothing for files another member paid for
 * (a run takes those answers from the hub). With the hub away the plan counts them as to pay and
 * says why.
 */
import { describe, expect, it } from 'vitest';
import type { PgServer } from '../../support/pg-server.js';
import { runCli, cliJson } from '../../support/cli-run.js';
import {
  linkProject,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let server: PgServer;
let lead: Member;
let carol: Member;

useTeamFixture(
  [
    { name: 'lead', createSchema: true },
    { name: 'carol', label: false },
  ],
  (fx) => {
    server = fx.server;
    [lead, carol] = fx.members as [Member, Member];
  },
);

interface Plan {
  found: number;
  alreadyLabelled: number;
  teamHas?: number;
  teamAway?: string | null;
  toLabel: { images: number; clips: number; frames: number };
}

describe('a plan in a team project', () => {
  it('counts the files the team already answered as free, and says when it cannot ask', async () => {
    // Before the project: carol's plan pays for both photos.
    const alone = await cliJson<Plan>(['plan', carol.folder], carol.env);
    expect(alone).toMatchObject({ found: 2, toLabel: { images: 2 } });
    expect(alone.teamHas).toBeUndefined();
    expect(alone.toLabel.frames).toBeGreaterThan(0);

    await linkProject(lead, 'create');
    expect((await team(lead, ['member', 'add', 'carol'])).code).toBe(0);
    expect(await teamJson(lead, ['sync'])).toMatchObject({ answersOffered: 2 });
    await linkProject(carol, 'join');

    const shared = await cliJson<Plan>(['plan', carol.folder], carol.env);
    expect(shared).toMatchObject({
      found: 2,
      alreadyLabelled: 0,
      teamHas: 2,
      teamAway: null,
      toLabel: { images: 0, clips: 0, frames: 0 },
    });
    const text = await runCli(['plan', carol.folder], carol.env);
    expect(text.stdout).toContain('2 answered by the team (free)');

    // The hub away: nothing is taken for granted.
    server.stop();
    const away = await cliJson<Plan>(['plan', carol.folder], carol.env);
    expect(away).toMatchObject({ found: 2, teamHas: 0, toLabel: { images: 2 } });
    expect(away.teamAway).toMatch(/\S/);
    const awayText = await runCli(['plan', carol.folder], carol.env);
    expect(awayText.stdout).toContain('The team hub could not be asked');
  }, 180_000);
});
