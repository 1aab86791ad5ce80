/**
 * What people do beyond box corrections reaches the others, and a member who leaves and joins
 * again loses nothing nor makes conflicts with their own work: two members, separate `labeldesk`
 * processes and homes, one real hub. Review marks (a person's, and an import's) go both ways,
 * unmarking too; ana leaves, corrects a box and marks a file while away, joins again, and her
 * work reaches the lead once, with no conflict. An auto-accept batch, its undo and a rejected box
 * reach the other member too (through migration 10's outbox, as before marks were shared).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import type { PgServer } from '../../support/pg-server.js';
import {
  linkProject,
  modelBox,
  projectWith,
  review,
  shown,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let server: PgServer;
let lead: Member;
let ana: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'ana' }], (fx) => {
  server = fx.server;
  [lead, ana] = fx.members as [Member, Member];
});

/** Runs `fn` over the member's library store (closed afterwards). */
function library<T>(m: Member, fn: (store: LibraryStore, id: (file: string) => number) => T): T {
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    return fn(store, (file) => store.media.byPath(join(m.folder, file))!.id);
  } finally {
    store.close();
  }
}

const markOf = (m: Member, file: string) =>
  library(m, (s, id) => s.reviewed.of(id(file), 'objects')?.reviewedBy ?? null);

const hubCount = (sql: string) => Number(server.sql(sql));

describe("people's work beyond box corrections, and leaving and joining again", () => {
  it('shares review marks both ways: set by a person or an import, and unset', async () => {
    await projectWith(lead, ana);
    library(lead, (s, id) => {
      s.reviewed.markReviewed([id('photo0.jpg')], 'objects', 'person');
      s.reviewed.markReviewed([id('photo1.jpg')], 'objects', 'import');
    });
    expect(await teamJson(lead, ['sync'])).toMatchObject({ marksPushed: 2 });
    expect(await teamJson(ana, ['sync'])).toMatchObject({ marksPulled: 2 });
    expect(markOf(ana, 'photo0.jpg')).toBe('person');
    expect(markOf(ana, 'photo1.jpg')).toBe('import');
    // Applied marks do not go out again.
    expect(await teamJson(ana, ['sync'])).toMatchObject({ marksPushed: 0 });
    library(ana, (s, id) => s.reviewed.unmarkReviewed([id('photo0.jpg')], 'objects'));
    await teamJson(ana, ['sync']);
    await teamJson(lead, ['sync']);
    expect(markOf(lead, 'photo0.jpg')).toBeNull();
    expect(markOf(lead, 'photo1.jpg')).toBe('import');
  }, 120_000);

  it("republishes on joining again only what the hub lacks, with no conflict with one's own work", async () => {
    review(ana, (r, id) =>
      r.edit(id('photo0.jpg'), 'objects', {
        kind: 'relabel',
        box: modelBox(ana, 'photo0.jpg', 0),
        label: 'kite',
      }),
    );
    await teamJson(ana, ['sync']);
    await teamJson(lead, ['sync']);
    const changesBefore = hubCount('SELECT count(*) FROM labeldesk_demo.changes');
    expect((await team(ana, ['leave'])).code).toBe(0);
    // Away: the kite becomes a bird, and photo0 is marked reviewed again.
    review(ana, (r, id) =>
      r.edit(id('photo0.jpg'), 'objects', {
        kind: 'relabel',
        box: modelBox(ana, 'photo0.jpg', 0),
        label: 'bird',
      }),
    );
    library(ana, (s, id) => s.reviewed.markReviewed([id('photo0.jpg')], 'objects', 'person'));
    await linkProject(ana, 'join');
    const synced = await teamJson(ana, ['sync']);
    expect(synced).toMatchObject({ pushed: 1, marksPushed: 1, conflicts: 0 });
    // One change for the one correction changed while away; nothing of the rest again.
    expect(hubCount('SELECT count(*) FROM labeldesk_demo.changes')).toBe(changesBefore + 1);
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pulled: 1, conflicts: 0 });
    expect(shown(lead, 'photo0.jpg')).toEqual(shown(ana, 'photo0.jpg'));
    expect(shown(lead, 'photo0.jpg').some((b) => b.startsWith('bird '))).toBe(true);
    expect(markOf(lead, 'photo0.jpg')).toBe('person');
    expect(await teamJson(ana, ['status'])).toMatchObject({ conflicts: 0, pendingPush: 0 });
  }, 120_000);

  it('shares an auto-accept batch and its undo, and a rejected box', async () => {
    const boxes = review(lead, (r, id) =>
      r.item(id('photo1.jpg'), 'objects').boxes.filter((b) => b.model !== null),
    );
    expect(boxes.length).toBeGreaterThan(1);
    const batch = library(lead, (s, id) =>
      s.ruleBatches.apply('objects', 0.95, 1, [
        {
          contentHash: s.media.byId(id('photo1.jpg'))!.contentHash!,
          boxes: boxes.slice(1).map((b) => ({
            correctionId: b.correctionId,
            frameIndex: b.frameIndex,
            timeMs: b.timeMs,
            model: b.model!,
            rule: 'a test rule',
          })),
        },
      ]),
    );
    review(lead, (r, id) =>
      r.edit(id('photo1.jpg'), 'objects', { kind: 'reject', box: modelBox(lead, 'photo1.jpg', 0) }),
    );
    await teamJson(lead, ['sync']);
    await teamJson(ana, ['sync']);
    const accepted = shown(ana, 'photo1.jpg');
    expect(accepted).toEqual(shown(lead, 'photo1.jpg'));
    expect(accepted.filter((b) => b.includes(' accepted ')).length).toBe(boxes.length - 1);
    // The batch undone: its boxes are pending again on both desktops; the rejection stays.
    expect(library(lead, (s) => s.ruleBatches.undo(batch))).toBe(boxes.length - 1);
    await teamJson(lead, ['sync']);
    expect(await teamJson(ana, ['sync'])).toMatchObject({ conflicts: 0 });
    const undone = review(ana, (r, id) => r.item(id('photo1.jpg'), 'objects').boxes);
    expect(undone.filter((b) => b.review === 'accepted')).toEqual([]);
    expect(undone.filter((b) => b.review === 'rejected')).toHaveLength(1);
  }, 120_000);
});
