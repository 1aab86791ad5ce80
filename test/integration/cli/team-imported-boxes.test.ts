/**
 * Issue 25: imported ground truth reaches the other members as the importer has it. The lead
 * imports COCO ground truth onto photo0's model boxes (one of them a crowd region) and syncs;
 * bob syncs and exports COCO with a `--min-score` above every model score: he gets exactly the
 * ground truth (the imported boxes are the person's, with no score), the crowd one as iscrowd 1.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-run.js';
import { projectWith, review, teamJson, useLeadAndBob } from '../../support/team-members.js';

const members = useLeadAndBob();
const WIDTH = 160;
const HEIGHT = 120;

interface Exported {
  images: { id: number; file_name: string }[];
  annotations: { image_id: number; category_id: number; iscrowd: number; score?: number }[];
  categories: { id: number; name: string }[];
}

/** Every exported annotation as `file label iscrowd`, sorted. */
async function exportedBy(env: NodeJS.ProcessEnv, out: string): Promise<string[]> {
  const r = await runCli(['export', '--format', 'coco', '--min-score', '0.995', '--out', out], env);
  expect(r.code, r.stderr).toBe(0);
  const doc = JSON.parse(await readFile(out, 'utf8')) as Exported;
  const files = new Map(doc.images.map((i) => [i.id, i.file_name.split('/').pop()]));
  const names = new Map(doc.categories.map((c) => [c.id, c.name]));
  return doc.annotations
    .map((a) => `${files.get(a.image_id)} ${names.get(a.category_id)} ${a.iscrowd}`)
    .sort();
}

describe('ground truth imported by one member', () => {
  it("reaches another member's exports as the person's boxes, its crowd region kept", async () => {
    const { lead, bob } = members;
    await projectWith(lead, bob);
    // photo0's model boxes as the lead's library has them (the stand-in engine scores 0.5–0.99).
    const boxes = review(lead, (r, id) =>
      r.item(id('photo0.jpg'), 'objects').boxes.filter((b) => b.model !== null),
    );
    expect(boxes.length).toBeGreaterThanOrEqual(2);
    expect(boxes.every((b) => (b.score ?? 1) < 0.995)).toBe(true);
    const [first, second] = boxes as [(typeof boxes)[0], (typeof boxes)[0]];
    const pixels = (b: typeof first) => [
      b.bbox.x * WIDTH,
      b.bbox.y * HEIGHT,
      b.bbox.w * WIDTH,
      b.bbox.h * HEIGHT,
    ];
    const groundTruth = {
      images: [{ id: 1, file_name: 'photo0.jpg', width: WIDTH, height: HEIGHT }],
      categories: [
        { id: 1, name: first.label },
        ...(second.label === first.label ? [] : [{ id: 2, name: second.label }]),
      ],
      annotations: [
        { id: 10, image_id: 1, category_id: 1, bbox: pixels(first), area: 1, iscrowd: 0 },
        {
          id: 11,
          image_id: 1,
          category_id: second.label === first.label ? 1 : 2,
          bbox: pixels(second),
          area: 1,
          iscrowd: 1,
        },
      ],
    };
    const gt = join(dirname(lead.folder), 'ground-truth.json');
    await writeFile(gt, JSON.stringify(groundTruth));
    const imported = await runCli(['import', gt, '--format', 'coco', '--json'], lead.env);
    expect(imported.code, imported.stderr).toBe(0);

    const expected = [`photo0.jpg ${first.label} 0`, `photo0.jpg ${second.label} 1`].sort();
    expect(await exportedBy(lead.env, join(dirname(lead.folder), 'lead.json'))).toEqual(expected);
    await teamJson(lead, ['sync']);
    await teamJson(bob, ['sync']);
    expect(await exportedBy(bob.env, join(dirname(bob.folder), 'bob.json'))).toEqual(expected);
    // In bob's review the imported boxes show no score, the crowd flag on one, as in the lead's.
    const kept = (m: typeof lead) =>
      review(m, (r, id) =>
        r
          .item(id('photo0.jpg'), 'objects')
          .boxes.filter((b) => b.review !== 'rejected' && !b.deleted)
          .map((b) => `${b.label} ${b.score} ${b.crowd === true}`)
          .sort(),
      );
    expect(kept(bob)).toEqual([`${first.label} null false`, `${second.label} null true`].sort());
    expect(kept(bob)).toEqual(kept(lead));
  });
});
