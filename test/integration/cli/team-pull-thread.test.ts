/**
 * The pull thread (core/team/pull-thread.ts): another member's changes are pulled from a real
 * hub and applied to this library on a thread of its own, with its own connections, exactly as
 * an in-thread pull applies them; a hub that is away is reported as `hub_unreachable` (the sync
 * engine then says offline), and the thread ends when closed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPullThread } from '../../../electron/core/team/pull-thread.js';
import { parseHubUrl } from '../../../electron/core/team/hub-url.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import {
  projectWith,
  relabelSecondBox,
  shown,
  teamJson,
  useLeadAndBob,
  type Member,
} from '../../support/team-members.js';

const members = useLeadAndBob();

const threadOf = (m: Member, address = parseHubUrl(m.hub(false)).address) => {
  const t = startPullThread({
    file: join(m.home, 'library.sqlite'),
    hub: { address, password: m.password, project: 'demo' },
  });
  if (!t) throw new Error('the pull thread script is not built (npm run build:node)');
  return t;
};

describe('the team pull thread', () => {
  it("applies another member's changes to this library off the main thread", async () => {
    const { lead, bob } = members;
    await projectWith(lead, bob);
    relabelSecondBox(lead, 'zebra');
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pushed: 1 });
    expect(shown(bob, 'photo0.jpg')).not.toEqual(shown(lead, 'photo0.jpg'));

    const thread = threadOf(bob);
    try {
      expect(await thread.pull()).toBe(1);
      expect(shown(bob, 'photo0.jpg')).toEqual(shown(lead, 'photo0.jpg'));
      // The cursor moved with the apply: nothing comes twice.
      expect(await thread.pull()).toBe(0);
    } finally {
      await thread.close();
    }
    const store = openLibraryStore(join(bob.home, 'library.sqlite'));
    try {
      // Applied changes are not this desktop's to push again.
      expect(store.team.counts().pendingPush).toBe(0);
    } finally {
      store.close();
    }

    const away = threadOf(bob, parseHubUrl(bob.hub(false)).address.replace(/:(\d+)\//, ':1/'));
    try {
      await expect(away.pull()).rejects.toMatchObject({
        name: 'TeamError',
        code: 'hub_unreachable',
      });
    } finally {
      await away.close();
    }
  });
});
