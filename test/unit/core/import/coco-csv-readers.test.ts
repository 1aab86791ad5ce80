/**
 * The COCO and CSV label readers: what our exports and other tools write, and malformed input,
 * where each problem is one issue with a code and a sentence for its file and nothing else is lost.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCoco } from '../../../../electron/core/import/coco-reader.js';
import { readCsvLabels } from '../../../../electron/core/import/csv-reader.js';
import { readLabels } from '../../../../electron/core/import/read-labels.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let n = 0;
async function file(name: string, text: string): Promise<string> {
  const dir = join(t.dir, String(++n));
  await mkdir(dir);
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

beforeAll(async () => (t = await tempDir('labeldesk-import-')));
afterAll(() => t.remove());

const coco = (extra: Record<string, unknown> = {}) => ({
  info: { image_root: '/data/set' },
  images: [
    {
      id: 1,
      file_name: 'a/one.jpg',
      width: 200,
      height: 100,
      absolute_path: '/data/set/a/one.jpg',
    },
    { id: 2, file_name: 'two.jpg', width: 50, height: 40 },
  ],
  annotations: [
    { id: 1, image_id: 1, category_id: 3, bbox: [10, 20, 30.5, 40.25], iscrowd: 0 },
    { id: 2, image_id: 2, category_id: 1, bbox: [0, 0, 50, 40] },
  ],
  categories: [
    { id: 1, name: 'person' },
    { id: 3, name: 'car' },
  ],
  ...extra,
});

describe('COCO reader', () => {
  it('reads images with their paths, declared sizes and pixel boxes [x, y, w, h]', async () => {
    const f = await file('c.json', JSON.stringify(coco()));
    const { files, issues } = await readCoco(f);
    expect(issues).toEqual([]);
    expect(files).toHaveLength(2);
    expect(files[0]).toMatchObject({
      name: 'a/one.jpg',
      size: { width: 200, height: 100 },
      stemOnly: false,
      boxes: [{ label: 'car', unit: 'px', x0: 10, y0: 20, x1: 40.5, y1: 60.25 }],
    });
    // Our absolute_path first, then the image root, then beside the file and in images/.
    expect(files[0]?.paths.slice(0, 2)).toEqual(['/data/set/a/one.jpg', '/data/set/a/one.jpg']);
    expect(files[1]?.paths).toContain(join(t.dir, String(n), 'two.jpg'));
    expect(files[1]?.boxes[0]).toMatchObject({ label: 'person', x1: 50, y1: 40 });
  });

  it('one bad annotation spoils only its image, with a code and a sentence', async () => {
    const doc = coco();
    doc.annotations.push(
      { id: 3, image_id: 2, category_id: 1, bbox: [5, 5, -1, 4] },
      { id: 4, image_id: 9, category_id: 1, bbox: [5, 5, 1, 4] },
    );
    const { files, issues } = await readCoco(await file('c.json', JSON.stringify(doc)));
    expect(files.map((f) => f.name)).toEqual(['a/one.jpg']);
    expect(issues.map((i) => i.code)).toEqual(['bad_box', 'malformed']);
    expect(issues[0]?.message).toMatch(
      /^two\.jpg: .*annotations\[2\] cannot be read \(the box has no area\)/,
    );
    expect(issues[1]?.message).toMatch(/names image 9, which the file does not list/);
  });

  it('an unknown category is an unknown_class issue for that image', async () => {
    const doc = coco();
    doc.annotations[0] = { id: 1, image_id: 1, category_id: 7, bbox: [1, 1, 2, 2], iscrowd: 0 };
    const { files, issues } = await readCoco(await file('c.json', JSON.stringify(doc)));
    expect(files.map((f) => f.name)).toEqual(['two.jpg']);
    expect(issues).toMatchObject([{ code: 'unknown_class', source: 'c.json image 1' }]);
  });

  it('a file that is not JSON, or not COCO, is one issue and nothing else', async () => {
    const broken = await readCoco(await file('c.json', '{"images": ['));
    expect(broken.files).toEqual([]);
    expect(broken.issues).toMatchObject([{ code: 'unreadable_source', message: /not valid JSON/ }]);
    const other = await readCoco(await file('d.json', '{"hello": 1}'));
    expect(other.issues).toMatchObject([{ code: 'unreadable_source', message: /not a COCO file/ }]);
  });

  it('reads annotations past the first thousands as one list; a break anywhere spoils the source', async () => {
    const many = Array.from({ length: 9000 }, (_, i) => ({
      image_id: 1 + (i % 2),
      category_id: i === 8500 ? 7 : 1,
      bbox: [i % 40, 0, 1, i === 8999 ? 2 : 1],
    }));
    const text = JSON.stringify(coco({ annotations: many }));
    const read = await readCoco(await file('c.json', text));
    expect(read.files.map((f) => [f.name, f.boxes.length])).toEqual([['two.jpg', 4500]]);
    expect(read.issues).toMatchObject([
      { code: 'unknown_class', message: /c\.json annotations\[8500\]/ },
    ]);
    // Broken in the last chunk of annotations, after the first were parsed: nothing is read.
    const broken = await readCoco(
      await file('c.json', text.replace('"bbox":[39,0,1,2]', '"bbox":[39,0,1,2')),
    );
    expect(broken).toMatchObject({
      files: [],
      issues: [{ code: 'unreadable_source', message: /not valid JSON/ }],
    });
  });

  it('a folder of COCO files reads each; a missing source is an issue', async () => {
    const a = await file('a.json', JSON.stringify(coco()));
    await writeFile(join(a, '..', 'b.json'), JSON.stringify(coco({ images: [], annotations: [] })));
    const both = await readLabels('coco', join(a, '..'));
    expect(both.files).toHaveLength(2);
    const none = await readLabels('coco', join(t.dir, 'nowhere.json'));
    expect(none.issues).toMatchObject([{ code: 'unreadable_source' }]);
  });
});

const HEADER = 'path,width,height,label,score,xmin,ymin,xmax,ymax,frame,timeMs\r\n';

describe('CSV reader', () => {
  it('reads our export: quoted labels, a clip with frame and time, rows of a file anywhere', async () => {
    const f = await file(
      'b.csv',
      HEADER +
        '/d/a.jpg,200,100,"kite, ""red""",0.5,1,2,3,4,,\r\n' +
        '/d/clip.mp4,160,120,person,1,10,10,20,20,5,500\r\n' +
        '/d/a.jpg,200,100,"two\nlines",0.5,5,6,7,8,,\r\n',
    );
    const { files, issues } = await readCsvLabels(f);
    expect(issues).toEqual([]);
    expect(files.map((x) => x.name)).toEqual(['/d/a.jpg', '/d/clip.mp4']);
    expect(files[0]?.boxes.map((b) => b.label)).toEqual(['kite, "red"', 'two\nlines']);
    expect(files[0]?.size).toEqual({ width: 200, height: 100 });
    expect(files[1]?.boxes[0]).toMatchObject({ frame: 5, timeMs: 500, x0: 10, y1: 20 });
  });

  it('reads a minimal header without sizes; a relative path is beside the CSV', async () => {
    const f = await file('m.csv', 'label,path,xmin,ymin,xmax,ymax\ndog,img/a.png,1,1,2,2\n');
    const { files } = await readCsvLabels(f);
    expect(files[0]).toMatchObject({ size: null, paths: [join(f, '..', 'img/a.png')] });
    expect(files[0]?.boxes[0]).toMatchObject({ frame: null, timeMs: null });
  });

  it('a bad row spoils only its file; a missing column or an open quote is one issue', async () => {
    const f = await file(
      'b.csv',
      HEADER +
        '/d/a.jpg,200,100,cat,1,5,5,x,9,,\r\n/d/b.jpg,200,100,cat,1,1,1,9,9,,\r\n/d/a.jpg,200,100,cat,1,1,1,9,9,,\r\n',
    );
    const { files, issues } = await readCsvLabels(f);
    expect(files.map((x) => x.name)).toEqual(['/d/b.jpg']);
    expect(issues).toMatchObject([
      {
        code: 'bad_box',
        message: /^\/d\/a\.jpg: b\.csv line 2 cannot be read \(a coordinate is not a number\)/,
      },
    ]);
    const noCols = await readCsvLabels(await file('c.csv', 'path,label\n/a.jpg,cat\n'));
    expect(noCols.issues).toMatchObject([
      { code: 'unreadable_source', message: /no xmin, ymin, xmax, ymax columns/ },
    ]);
    const open = await readCsvLabels(await file('d.csv', HEADER + '"/a.jpg,1,1,cat\n'));
    expect(open.issues).toMatchObject([{ code: 'unreadable_source', message: /never closes/ }]);
  });
});

describe('COCO file names as paths', () => {
  it('tries each name under the image root, its folder and images/, as join resolves it', async () => {
    const names = [
      'a/b.jpg',
      'a/./b.jpg',
      './b.jpg',
      '../up/b.jpg',
      '../../../data/cam-0/b.jpg',
      '../../../data/cam-0/c.jpg',
      '../../../../../../../b.jpg',
      'a//b.jpg',
      'a/../b.jpg',
      'a/..',
      'a/b/',
      'a/b/..',
      '../..',
      '..',
      'a/...',
      'a/.../b.jpg',
      'a\\b.jpg',
      'a/b\\c.jpg',
      'b..jpg',
      '.b.jpg',
      'a/.b/c.jpg',
    ];
    const images = names.map((file_name, i) => ({ id: i + 1, file_name, width: 10, height: 10 }));
    for (const root of ['/data/./set/', '/', '/data/set']) {
      const at = await file(
        'labels.json',
        JSON.stringify({ info: { image_root: root }, images, annotations: [], categories: [] }),
      );
      const read = await readCoco(at);
      const dir = join(at, '..');
      expect(read.files.map((f) => f.paths)).toEqual(
        names.map((n) => [join(root, n), join(dir, n), join(dir, 'images', n)]),
      );
    }
  });
});
