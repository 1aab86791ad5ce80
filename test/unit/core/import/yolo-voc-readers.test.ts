/**
 * The YOLO and VOC label readers: our exports' layouts, the common layouts of other tools (Ultralytics
 * folders and data.yaml forms, VOC devkit files with 1-based pixels and person parts), and malformed
 * input, where each problem is one issue for its file and nothing else is lost.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVoc } from '../../../../electron/core/import/voc-reader.js';
import { namesFromYaml } from '../../../../electron/core/import/yolo-class-names.js';
import { readYolo } from '../../../../electron/core/import/yolo-reader.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let n = 0;
async function tree(files: Record<string, string>): Promise<string> {
  const root = join(t.dir, String(++n));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), text);
  }
  return root;
}

beforeAll(async () => (t = await tempDir('labeldesk-import-')));
afterAll(() => t.remove());

describe('YOLO reader', () => {
  it('reads our export: data.yaml names (quoted, escaped), sources.csv paths, empty files', async () => {
    const root = await tree({
      'data.yaml': 'path: .\nnc: 2\nnames:\n  0: "person"\n  1: "kite, \\"red\\"\\nx"\n',
      'classes.txt': 'person\nkite, "red" x\n',
      'sources.csv': 'label_file,path\r\nlabels/a.txt,/d/a.jpg\r\nlabels/b.txt,/d/b.jpg\r\n',
      'labels/a.txt': '1 0.5 0.5 0.2 0.4\n0 0.1 0.1 0.2 0.2\n',
      'labels/b.txt': '',
    });
    const { files, issues } = await readYolo(root);
    expect(issues).toEqual([]);
    expect(files.map((f) => [f.name, f.paths, f.stemOnly, f.size])).toEqual([
      ['a', ['/d/a.jpg'], true, null],
      ['b', ['/d/b.jpg'], true, null],
    ]);
    const [kite, person] = files[0]?.boxes ?? [];
    expect(kite).toMatchObject({ label: 'kite, "red"\nx', unit: 'norm' });
    expect([kite?.x0, kite?.y0, kite?.x1, kite?.y1].map((v) => Number(v?.toFixed(9)))).toEqual([
      0.4, 0.3, 0.6, 0.7,
    ]);
    expect(person?.label).toBe('person');
    expect(files[1]?.boxes).toEqual([]);
  });

  it('reads Ultralytics folders (labels/train/…) with classes.txt alone, and name lists', async () => {
    const root = await tree({
      'classes.txt': 'cat\ndog\n',
      'labels/train/x.txt': '1 0.5 0.5 0.5 0.5 0.9\n',
    });
    const { files } = await readYolo(root);
    expect(files).toMatchObject([{ name: 'train/x', paths: [], boxes: [{ label: 'dog' }] }]);
    expect([...(namesFromYaml('names: [\'a\', "b", c]\n') ?? new Map()).values()]).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect([
      ...(namesFromYaml('names:\n  - a\n  - b # note\nnc: 2\n') ?? new Map()).values(),
    ]).toEqual(['a', 'b']);
    expect([...(namesFromYaml("names: {0: x, 1: 'it''s'}\n") ?? new Map()).values()]).toEqual([
      'x',
      "it's",
    ]);
  });

  it('finds the dataset as Ultralytics does: data.yaml above labels/, its path and splits', async () => {
    const root = await tree({
      'coco/data.yaml':
        'path: .\ntrain: images/train2017\nval: images/val2017\nnames:\n  0: person\n  5: bus\n',
      'coco/labels/train2017/a.txt': '0 0.5 0.5 0.2 0.4\n',
      // A segmentation line: its polygon's bounding box.
      'coco/labels/val2017/b.txt': '5 0.1 0.2 0.4 0.2 0.3 0.6 0.2 0.5\n',
      'roboflow/data.yaml': "train: ../train/images\nval: ../valid/images\nnames: ['cat', 'dog']\n",
      'roboflow/train/labels/c.txt': '1 0.5 0.5 0.5 0.5\n',
      'roboflow/valid/labels/d.txt': '0 0.5 0.5 0.5 0.5\n',
    });
    const coco = join(root, 'coco');
    const pick = (r: Awaited<ReturnType<typeof readYolo>>) =>
      r.files.map((f) => [f.source, f.name, f.pathStem, f.boxes.map((b) => b.label)]);
    const expected = [
      ['labels/train2017/a.txt', 'a', join(coco, 'images/train2017/a'), ['person']],
      ['labels/val2017/b.txt', 'b', join(coco, 'images/val2017/b'), ['bus']],
    ];
    // The dataset's root, its YAML, or one split's labels: the YAML above is found each time.
    expect(pick(await readYolo(coco))).toEqual(expected);
    expect(pick(await readYolo(join(coco, 'data.yaml')))).toEqual(expected);
    expect(pick(await readYolo(join(coco, 'labels/val2017')))).toEqual([
      ['labels/val2017/b.txt', 'b', join(coco, 'images/val2017/b'), ['bus']],
    ]);
    const [b] = (await readYolo(join(coco, 'labels/val2017'))).files;
    expect(b?.boxes[0]).toMatchObject({ x0: 0.1, y0: 0.2, x1: 0.4, y1: 0.6 });
    // Roboflow's layout: `../train/images` for the train/ beside the YAML (Ultralytics drops the
    // `../` when that path does not exist), names as a flow list.
    const rf = join(root, 'roboflow');
    expect(pick(await readYolo(rf))).toEqual([
      ['train/labels/c.txt', 'c', join(rf, 'train/images/c'), ['dog']],
      ['valid/labels/d.txt', 'd', join(rf, 'valid/images/d'), ['cat']],
    ]);
  });

  it('a bad line spoils only its file; no class names at all is one issue', async () => {
    const root = await tree({
      'classes.txt': 'cat\n',
      'labels/ok.txt': '0 0.5 0.5 0.1 0.1\n',
      'labels/seg.txt': '0 0.1 0.1 0.2 0.2 0.3 0.3 0.4\n',
      'labels/class.txt': '3 0.5 0.5 0.1 0.1\n',
      'labels/flat.txt': '0 0.5 0.5 0 0.1\n',
      'labels/word.txt': '0 a 0.5 0.1 0.1\n',
    });
    const { files, issues } = await readYolo(root);
    expect(files.map((f) => f.name)).toEqual(['ok']);
    expect(issues.map((i) => [i.source, i.code])).toEqual([
      ['labels/class.txt', 'unknown_class'],
      ['labels/flat.txt', 'bad_box'],
      ['labels/seg.txt', 'malformed'],
      ['labels/word.txt', 'bad_box'],
    ]);
    expect(issues[0]?.message).toBe(
      'labels/class.txt line 1 cannot be read (class 3 has no name), so none of its labels were imported.',
    );
    const bare = await readYolo(await tree({ 'labels/a.txt': '0 0.5 0.5 0.1 0.1\n' }));
    expect(bare.files).toEqual([]);
    expect(bare.issues).toMatchObject([
      { code: 'unreadable_source', message: /no data\.yaml with names and no classes\.txt/ },
    ]);
  });
});

const voc = (source: string, objects: string, size = '<width>200</width><height>100</height>') =>
  `<?xml version="1.0"?>\n<annotation><folder>d</folder><filename>a &amp; b.jpg</filename>` +
  `<path>/d/a &amp; b.jpg</path><source><database>${source}</database></source>` +
  `<size>${size}<depth>3</depth></size>${objects}</annotation>\n`;
const object = (name: string, box: string, parts = '') =>
  `<object><name>${name}</name><difficult>0</difficult><bndbox>${box}</bndbox>${parts}</object>`;
const corners = (a: number, b: number, c: number, d: number) =>
  `<xmin>${a}</xmin><ymin>${b}</ymin><xmax>${c}</xmax><ymax>${d}</ymax>`;

describe('VOC reader', () => {
  it('reads our export as pixel edges from 0, entities decoded', async () => {
    const root = await tree({
      'a.xml': voc('LabelDesk', object('kite &lt;3', corners(0, 10, 200, 50))),
    });
    const { files, issues } = await readVoc(root);
    expect(issues).toEqual([]);
    expect(files).toMatchObject([
      {
        name: 'a & b.jpg',
        paths: ['/d/a & b.jpg', join(root, 'a & b.jpg')],
        size: { width: 200, height: 100 },
        boxes: [{ label: 'kite <3', unit: 'px', x0: 0, y0: 10, x1: 200, y1: 50 }],
      },
    ]);
  });

  it('reads devkit files as 1-based pixels and ignores person parts', async () => {
    const part = `<part><name>head</name><bndbox>${corners(5, 5, 6, 6)}</bndbox></part>`;
    const root = await tree({
      'x/b.xml': voc('The VOC2007 Database', object('person', corners(1, 11, 200, 50), part)),
    });
    const { files } = await readVoc(root);
    expect(files[0]?.boxes).toEqual([
      { label: 'person', unit: 'px', x0: 0, y0: 10, x1: 200, y1: 50, frame: null, timeMs: null },
    ]);
    expect(files[0]?.source).toBe('x/b.xml');
  });

  it('a bad file is one issue; the others are read', async () => {
    const root = await tree({
      'good.xml': voc('LabelDesk', object('cat', corners(1, 1, 5, 5))),
      'flat.xml': voc('LabelDesk', object('cat', corners(5, 1, 5, 5))),
      'noname.xml': voc('LabelDesk', object('', corners(1, 1, 5, 5))),
      'junk.xml': '<html></html>',
    });
    const { files, issues } = await readVoc(root);
    expect(files.map((f) => f.source)).toEqual(['good.xml']);
    expect(issues.map((i) => [i.source, i.code])).toEqual([
      ['flat.xml', 'bad_box'],
      ['junk.xml', 'malformed'],
      ['noname.xml', 'malformed'],
    ]);
    expect(issues[0]?.message).toBe(
      'a & b.jpg: object 1 of flat.xml cannot be read (the box has no area), so none of its labels were imported.',
    );
  });

  it('hostile files are one issue each (unclosed tags, entity bombs), deep nesting is no crash', async () => {
    // 400 KB of unclosed tags took 22 s with the old regular expressions (quadratic).
    const unclosed = `<annotation><filename>u.jpg</filename>${'<object><name>x'.repeat(25_000)}`;
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;&l;">]>' +
      `<annotation><filename>&l2;</filename>${object('cat', corners(1, 1, 5, 5))}</annotation>`;
    const deep = `<annotation><filename>d.jpg</filename>${'<n>'.repeat(50_000)}${'</n>'.repeat(50_000)}</annotation>`;
    const root = await tree({
      'unclosed.xml': unclosed,
      'laughs.xml': laughs,
      'deep.xml': deep,
      'good.xml': voc('LabelDesk', object('cat', corners(1, 1, 5, 5))),
    });
    const { files, issues } = await readVoc(root);
    expect(files.map((f) => [f.source, f.boxes.length])).toEqual([
      ['deep.xml', 0],
      ['good.xml', 1],
    ]);
    expect(issues.map((i) => [i.source, i.code])).toEqual([
      ['laughs.xml', 'malformed'],
      ['unclosed.xml', 'malformed'],
    ]);
    expect(issues[1]?.message).toMatch(/^unclosed\.xml is not well-formed XML \(.+\), so none/);
  });
});
