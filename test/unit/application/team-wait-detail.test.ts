import { describe, expect, it } from 'vitest';

import { teamWaitDetail } from '../../../electron/application/team-wait-detail.js';

describe('teamWaitDetail', () => {
  it('counts the waited-for files per member and says they are not sent twice', () => {
    const said: string[] = [];
    const wait = teamWaitDetail((detail) => said.push(detail));
    wait({ path: 'a.jpg' }, 'ana');
    wait({ path: 'b.jpg' }, 'ben');
    wait({ path: 'c.jpg' }, 'ana');
    expect(said).toHaveLength(3);
    expect(said[0]).toBe(
      "Waiting for the team's answers for files other members are sending (1 by ana): they are not sent twice.",
    );
    expect(said[2]).toContain('(2 by ana, 1 by ben)');
  });

  it('starts each run from zero', () => {
    const first: string[] = [];
    teamWaitDetail((d) => first.push(d))({}, 'ana');
    const second: string[] = [];
    teamWaitDetail((d) => second.push(d))({}, 'ana');
    expect(second[0]).toContain('(1 by ana)');
  });
});
