/** Libraries joined to one project for the team unit tests, removed after each test. */
import { afterEach } from 'vitest';
import type { LibraryStore } from '../../../../electron/core/store/store-types.js';
import { storeFixture, type StoreFixture } from '../store/store-fixture.js';

/** Returns a maker of desktops (a real library each, joined as `member`) for the calling file. */
export function teamDesktops(): (member: string) => Promise<LibraryStore> {
  const fixtures: StoreFixture[] = [];
  afterEach(async () => {
    for (const f of fixtures.splice(0)) await f.done();
  });
  return async (member) => {
    const f = await storeFixture();
    fixtures.push(f);
    f.store.team.setLink(
      { hub: 'postgresql://x@h/db', project: 'p', folder: '/f', member, role: 'annotator' },
      1,
    );
    return f.store;
  };
}
