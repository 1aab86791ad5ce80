/**
 * Issue 25, two gaps of team sync, through a real PostgreSQL hub and separate `labeldesk`
 * processes:
 * - an annotator who edits a box in conflict between two other members (a change the hub refuses
 *   from them as settling others' conflict) is never stuck: the edit goes out as one more version
 *   of the box, nothing waits in the outbox, and the lead sees it among the versions to keep;
 * - a kept version whose state has no COCO fields clears the fields an import kept on the box.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { runCli } from '../../support/cli-run.js';
import {
  modelBox,
  projectWith,
  review,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let lead: Member;
let ann: Member;
let cid: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'ann' }, { name: 'cid' }], (fx) => {
  [lead, ann, cid] = fx.members as [Member, Member, Member];
});

beforeAll(() => projectWith(lead, ann, cid), 300_000);

const relabel = (m: Member, file: string, n: number, label: string) =>
  review(m, (r, id) =>
    r.edit(id(file), 'objects', { kind: 'relabel', box: modelBox(m, file, n), label }),
  );

interface Listed {
  conflicts: { id: string; versions: { member: string; label: string }[] }[];
}

const syncAll = async () => {
  for (const m of [lead, ann, cid, lead, ann, cid]) await teamJson(m, ['sync']);
};

/** Imports photo1's first model box as COCO ground truth with a segmentation the import keeps. */
async function importCocoBox(m: Member): Promise<void> {
  const box = review(m, (r, id) => r.item(id('photo1.jpg'), 'objects').boxes.find((b) => b.model))!;
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  const { width, height } = store.media.byPath(join(m.folder, 'photo1.jpg'))! as {
    width: number;
    height: number;
  };
  store.close();
  const doc = {
    images: [{ id: 1, file_name: 'photo1.jpg', width, height }],
    categories: [{ id: 1, name: box.label }],
    annotations: [
      {
        id: 77,
        image_id: 1,
        category_id: 1,
        bbox: [box.bbox.x * width, box.bbox.y * height, box.bbox.w * width, box.bbox.h * height],
        area: 1,
        iscrowd: 0,
        segmentation: [[1, 1, 2, 2, 3, 1]],
      },
    ],
  };
  const file = join(dirname(m.folder), 'gt.json');
  await writeFile(file, JSON.stringify(doc));
  const r = await runCli(['import', file, '--format', 'coco', '--json'], m.env);
  expect(r.code, r.stderr + r.stdout).toBe(0);
}

/** The kept COCO fields of a file's corrections in a member's library, by shown label. */
function cocoOf(m: Member, file: string): [string | undefined, string | null][] {
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    const hash = store.media.byPath(join(m.folder, file))!.contentHash!;
    const rows = store.corrections.forContent(hash, 'objects');
    return rows.map((c) => [c.label ?? c.anchor?.label, c.coco ?? null]);
  } finally {
    store.close();
  }
}

describe('edits of boxes in conflict', () => {
  it("an annotator's edit of others' conflict goes out as one more version", async () => {
    relabel(lead, 'photo0.jpg', 0, 'cup');
    relabel(cid, 'photo0.jpg', 0, 'mug');
    await syncAll();
    expect((await teamJson(ann, ['status'])).conflicts).toBe(1);

    // ann has no version of the box: settling it is the lead's, the edit is ann's own version.
    relabel(ann, 'photo0.jpg', 0, 'bowl');
    const synced = await teamJson<{ pushed: number }>(ann, ['sync']);
    expect(synced.pushed).toBe(1);
    expect(await teamJson(ann, ['status'])).toMatchObject({ pendingPush: 0, conflicts: 1 });
    await teamJson(lead, ['sync']);
    const listed = await teamJson<Listed>(lead, ['conflicts']);
    expect(listed.conflicts).toHaveLength(1);
    const versions = listed.conflicts[0]!.versions.map((v) => `${v.member} ${v.label}`);
    expect(versions).toContain('ann bowl');
    expect(versions).toHaveLength(2);

    // The lead keeps ann's: every desktop ends with it and nothing open.
    await teamJson(lead, ['resolve', '--all', '--keep', 'ann']);
    await syncAll();
    for (const m of [lead, ann, cid]) {
      expect(await teamJson(m, ['status'])).toMatchObject({ pendingPush: 0, conflicts: 0 });
      const labels = review(m, (r, id) =>
        r.item(id('photo0.jpg'), 'objects').boxes.map((b) => b.label),
      );
      expect(labels).toContain('bowl');
    }
  }, 300_000);

  it('a kept version without COCO fields clears the ones an import kept', async () => {
    relabel(cid, 'photo1.jpg', 0, 'kite');
    await importCocoBox(lead);
    const imported = cocoOf(lead, 'photo1.jpg').map(([, coco]) => coco);
    expect(
      imported.some((c) => c !== null && c.includes('segmentation')),
      JSON.stringify(imported),
    ).toBe(true);
    await syncAll();
    // cid's edit and the lead's import of one box, neither seen by the other: the lead keeps cid's.
    await teamJson(lead, ['resolve', '--all', '--keep', 'cid']);
    await syncAll();
    for (const m of [lead, ann, cid]) {
      expect((await teamJson(m, ['status'])).conflicts).toBe(0);
      expect(cocoOf(m, 'photo1.jpg').filter(([label]) => label === 'kite')).toEqual([
        ['kite', null],
      ]);
    }
  }, 300_000);
});
