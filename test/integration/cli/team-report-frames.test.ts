/**
 * Frames spent per member (issue 26 §3) count a clip as the frames its key was charged, not as
 * one frame: a lead labels two photos and a clip with `labeldesk label`, shares the answers
 * through a real PostgreSQL hub, and `team report` says the clip's frames (a photo is one).
 */
import { describe, expect, it } from 'vitest';
import { cliJson } from '../../support/cli-run.js';
import { clip } from '../../support/synth-media.js';
import { linkProject, teamJson, useTeamFixture, type Member } from '../../support/team-members.js';

let lead: Member;

useTeamFixture([{ name: 'lead', createSchema: true }], (fx) => {
  [lead] = fx.members as [Member];
});

describe('frames spent in the team report', () => {
  it("counts a member's clip as the frames it cost", async () => {
    await clip(lead.folder, 'walk.mp4', 3, '160x120', 10);
    const run = await cliJson<{ labelled: number; framesSpent: number }>(
      ['label', lead.folder, '--yes'],
      lead.env,
    );
    expect(run.labelled).toBe(1);
    // A 3 s clip at 10 fps: far more than the one frame a photo counts as.
    expect(run.framesSpent).toBeGreaterThan(1);
    await linkProject(lead, 'create');
    expect(await teamJson(lead, ['sync'])).toMatchObject({ answersOffered: 3 });
    const report = await teamJson<{ members: { member: string; framesSpent: number }[] }>(lead, [
      'report',
    ]);
    // Two photos (one frame each) and the clip's charged frames.
    expect(report.members).toEqual([
      expect.objectContaining({ member: 'lead', framesSpent: 2 + run.framesSpent }),
    ]);
  }, 180_000);
});
