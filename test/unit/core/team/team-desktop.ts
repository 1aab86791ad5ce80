/** Libraries joined to one project for the team unit tests, removed after each test. */
import { afterEach } from 'vitest';
import type { LibraryStore } from '../../../../electron/core/store/store-types.js';
import type { PulledChange } from '../../../../electron/core/store/team-types.js';
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

/** `count` boxes drawn on one desktop, as the hub hands them out (seq 1…count). */
export async function drawnLog(
  desktop: (member: string) => Promise<LibraryStore>,
  count: number,
): Promise<PulledChange[]> {
  const a = await desktop('a');
  for (let i = 0; i < count; i++) {
    a.corrections.put({
      contentHash: 'h1',
      solution: 'objects',
      frameIndex: 0,
      timeMs: null,
      anchor: null,
      label: `kite${i}`,
      bbox: { x: (i % 100) / 100, y: 0.1, w: 0.01, h: 0.1 },
      review: 'accepted',
      deleted: false,
    });
  }
  return a.team.outbox(count).map((c, i) => ({ ...c, member: 'a', seq: i + 1 }));
}
