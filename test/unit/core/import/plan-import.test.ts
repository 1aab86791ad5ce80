/**
 * Matching labelled entries to library files, and what an import writes for one file: a person's
 * accepted boxes replacing the model's, checked sizes (EXIF orientation included), clips' frames,
 * nothing written twice, and a person's corrections never overwritten.
 */
import { describe, expect, it } from 'vitest';
import type { ImportedFile } from '../../../../electron/core/import/import-model.js';
import { LibraryIndex } from '../../../../electron/core/import/match-files.js';
import { planImport, type FileState } from '../../../../electron/core/import/plan-import.js';
import { mergeCorrections } from '../../../../electron/core/review/merge-corrections.js';
import type {
  CorrectionInput,
  CorrectionRow,
  DetectionRow,
  MediaRecord,
} from '../../../../electron/core/store/store-types.js';

const media = (id: number, path: string, extra: Partial<MediaRecord> = {}): MediaRecord => ({
  id,
  folderId: 1,
  path,
  kind: 'image',
  size: 1,
  mtimeMs: 1,
  contentHash: `h${id}`,
  width: 200,
  height: 100,
  orientation: 1,
  durationMs: null,
  fps: null,
  status: 'present',
  errorCode: null,
  errorMessage: null,
  ...extra,
});

const entry = (extra: Partial<ImportedFile> = {}): ImportedFile => ({
  source: 'src',
  paths: [],
  name: 'a.jpg',
  stemOnly: false,
  size: { width: 200, height: 100 },
  boxes: [],
  ...extra,
});

const px = (label: string, x0: number, y0: number, x1: number, y1: number) => ({
  label,
  unit: 'px' as const,
  x0,
  y0,
  x1,
  y1,
  frame: null,
  timeMs: null,
});

const detection = (
  id: number,
  label: string,
  x: number,
  frameIndex = 0,
  timeMs: number | null = null,
): DetectionRow => ({
  id,
  resultId: 1,
  frameIndex,
  timeMs,
  label,
  classId: null,
  score: 0.8,
  bbox: { x, y: 0.1, w: 0.2, h: 0.2 },
  origin: 'model',
  review: 'pending',
});

function state(
  m: MediaRecord,
  model: DetectionRow[],
  corrections: CorrectionRow[] = [],
  importedBefore = false,
): FileState {
  const result = {
    id: 1,
    contentHash: m.contentHash as string,
    solution: 'objects',
    serviceUrl: 's',
    analysedWidth: 200,
    analysedHeight: 100,
    model: null,
    boxCount: 0,
    createdAt: 0,
  };
  return { media: m, result, model, corrections, importedBefore };
}

/** Stores written corrections as rows, the way the repository would. */
const stored = (writes: CorrectionInput[], from: CorrectionRow[] = []): CorrectionRow[] => {
  const rows = [...from];
  for (const w of writes) {
    const row = {
      ...w,
      id: w.id ?? rows.length + 100,
      track: w.track ?? null,
      updatedAt: 1,
    } as CorrectionRow;
    const at = rows.findIndex((r) => r.id === row.id);
    if (at >= 0) rows[at] = row;
    else rows.push(row);
  }
  return rows;
};

describe('matching files', () => {
  const index = new LibraryIndex([
    media(1, '/lib/x/a.jpg'),
    media(2, '/lib/y/a.jpg'),
    media(3, '/lib/y/b.png'),
    media(4, '/lib/z/c.jpg'),
  ]);
  it('by a given path, then by a unique name, then by the folders the name carries', () => {
    expect(index.match(entry({ paths: ['/elsewhere/a.jpg', '/lib/y/a.jpg'] }))).toMatchObject({
      id: 2,
    });
    expect(index.match(entry({ name: 'c.jpg' }))).toMatchObject({ id: 4 });
    expect(index.match(entry({ name: 'set/x/a.jpg' }))).toMatchObject({ id: 1 });
    expect(index.match(entry({ name: 'y/b', stemOnly: true }))).toMatchObject({ id: 3 });
  });
  it('by where Ultralytics expects the image (any extension) before the name', () => {
    expect(index.match(entry({ name: 'a', stemOnly: true, pathStem: '/lib/y/a' }))).toMatchObject({
      id: 2,
    });
    expect(index.match(entry({ name: 'a', stemOnly: true, pathStem: '/lib/q/a' }))).toMatchObject({
      code: 'ambiguous_file',
    });
  });
  it('lists an ambiguous or unknown name instead of guessing', () => {
    expect(index.match(entry({ name: 'a.jpg' }))).toMatchObject({
      code: 'ambiguous_file',
      message:
        'a.jpg: 2 files of the library have this name (/lib/x/a.jpg, /lib/y/a.jpg); its labels were not imported.',
    });
    expect(index.match(entry({ name: 'q.jpg' }))).toMatchObject({ code: 'unknown_file' });
  });
  it('finds an entry by path, and builds the name maps in steps when asked', () => {
    const library = new LibraryIndex([1, 2, 3, 4, 5].map((i) => media(i, `/lib/${i}.jpg`)));
    expect(library.byPath(entry({ paths: ['/x/1.jpg', '/lib/1.jpg'] }))).toMatchObject({ id: 1 });
    expect(library.byPath(entry({ paths: ['/x/1.jpg'] }))).toBeUndefined();
    expect([...library.nameSteps(2)]).toHaveLength(3);
    expect([...library.nameSteps(2)]).toHaveLength(0);
    expect(library.match(entry({ name: '5.jpg' }))).toMatchObject({ id: 5 });
  });
  it('finds by name files added after names were first looked up (the library read in pages)', () => {
    const paged = new LibraryIndex([media(1, '/lib/x/a.jpg')]);
    expect(paged.match(entry({ name: 'a.jpg' }))).toMatchObject({ id: 1 });
    paged.add([media(2, '/lib/y/a.jpg'), media(3, '/lib/y/d.jpg')]);
    expect(paged.match(entry({ name: 'd', stemOnly: true }))).toMatchObject({ id: 3 });
    expect(paged.match(entry({ name: 'a.jpg' }))).toMatchObject({
      code: 'ambiguous_file',
      message: expect.stringContaining('(/lib/x/a.jpg, /lib/y/a.jpg)'),
    });
  });
});

describe('planning one file', () => {
  const m = media(1, '/lib/a.jpg');

  it('accepts a model box the labels repeat, deletes the others, draws the rest', () => {
    const model = [detection(1, 'cat', 0.1), detection(2, 'dog', 0.5)];
    const plan = planImport(
      entry({ boxes: [px('cat', 20, 10, 60, 30), px('kite', 0, 0, 100, 50)] }),
      state(m, model),
      'objects',
    );
    if (!('kind' in plan) || plan.kind !== 'write') throw new Error(JSON.stringify(plan));
    expect(plan.boxes).toBe(2);
    const shown = mergeCorrections(model, stored(plan.corrections));
    expect(shown.map((b) => [b.label, b.review, b.origin])).toEqual([
      ['cat', 'accepted', 'model'],
      ['kite', 'accepted', 'added'],
    ]);
    expect(shown[1]?.bbox).toEqual({ x: 0, y: 0, w: 0.5, h: 0.5 });
    // Imported labels are the person's ground truth: no score, on the model's box (whose own
    // score the evaluation still reads) as on a drawn one (issue 24).
    expect(shown.map((b) => b.score)).toEqual([null, null]);
    expect(shown.map((b) => b.model?.score ?? null)).toEqual([0.8, null]);
    // Importing the same labels again writes nothing.
    const again = planImport(
      entry({ boxes: [px('cat', 20, 10, 60, 30), px('kite', 0, 0, 100, 50)] }),
      state(m, model, stored(plan.corrections), true),
      'objects',
    );
    expect(again).toEqual({ kind: 'unchanged', boxes: 2 });
    // Different labels replace a previous import's, and only its.
    const next = planImport(
      entry({ boxes: [px('dog', 100, 10, 140, 30)] }),
      state(m, model, stored(plan.corrections), true),
      'objects',
    );
    if (!('kind' in next) || next.kind !== 'write') throw new Error(JSON.stringify(next));
    const after = mergeCorrections(model, stored(next.corrections, stored(plan.corrections)));
    expect(after.map((b) => [b.label, b.review, b.origin])).toEqual([['dog', 'accepted', 'model']]);
  });

  it('turns a model box overlapping a label into it (one edited box, not a deletion and a drawing)', () => {
    const model = [detection(1, 'cat', 0.1), detection(2, 'dog', 0.5)];
    const labels = [px('lynx', 22, 12, 62, 32), px('dog', 103, 10, 143, 30)];
    const plan = planImport(entry({ boxes: labels }), state(m, model), 'objects');
    if (!('kind' in plan) || plan.kind !== 'write') throw new Error(JSON.stringify(plan));
    expect(plan.corrections).toHaveLength(2);
    const shown = mergeCorrections(model, stored(plan.corrections));
    expect(shown.map((b) => [b.label, b.review, b.origin, b.model?.label])).toEqual([
      ['lynx', 'accepted', 'edited', 'cat'],
      ['dog', 'accepted', 'edited', 'dog'],
    ]);
    expect(shown[1]?.bbox.x).toBeCloseTo(0.515, 9);
    // The person's boxes now: no score (no score filter drops them); the model's stays its anchor's.
    expect(shown.map((b) => b.score)).toEqual([null, null]);
    expect(shown.map((b) => b.model?.score)).toEqual([0.8, 0.8]);
    const again = planImport(
      entry({ boxes: labels }),
      state(m, model, stored(plan.corrections), true),
      'objects',
    );
    expect(again).toEqual({ kind: 'unchanged', boxes: 2 });
  });

  it("never overwrites a person's corrections", () => {
    const model = [detection(1, 'cat', 0.1)];
    const person: CorrectionRow = {
      id: 5,
      contentHash: 'h1',
      solution: 'objects',
      frameIndex: 0,
      timeMs: null,
      anchor: { label: 'cat', score: 0.8, bbox: model[0]!.bbox },
      label: 'lion',
      bbox: null,
      review: 'accepted',
      deleted: false,
      track: null,
      updatedAt: 9,
    };
    const plan = planImport(
      entry({ boxes: [px('cat', 20, 10, 60, 30)] }),
      state(m, model, [person]),
      'objects',
    );
    expect(plan).toMatchObject({ code: 'has_corrections', path: '/lib/a.jpg' });
  });

  it('checks the declared size against the displayed one, EXIF orientation included', () => {
    const turned = media(2, '/lib/p.jpg', { width: 320, height: 240, orientation: 6 });
    const s = state(turned, []);
    s.result.analysedWidth = 240;
    s.result.analysedHeight = 320;
    expect(
      planImport(
        entry({ size: { width: 240, height: 320 }, boxes: [px('a', 0, 0, 240, 320)] }),
        s,
        'objects',
      ),
    ).toMatchObject({ kind: 'write' });
    expect(planImport(entry({ size: { width: 320, height: 240 } }), s, 'objects')).toMatchObject({
      code: 'size_mismatch',
      message: /the labels say 320×240 but the file shows 240×320 \(EXIF orientation 6 turns/,
    });
  });

  it("puts a clip's boxes on the model's sampled frame at that time", () => {
    const clip = media(3, '/lib/c.mp4', { kind: 'video', fps: 10, width: 160, height: 120 });
    const model = [detection(1, 'cat', 0.1, 0, 0), detection(2, 'cat', 0.1, 4, 2000)];
    const box = (frame: number | null, timeMs: number | null) => ({
      ...px('dog', 0, 0, 80, 60),
      frame,
      timeMs,
    });
    const plan = planImport(
      entry({
        size: { width: 160, height: 120 },
        boxes: [box(20, 2000), box(10, null), box(null, null)],
      }),
      state(clip, model),
      'objects',
    );
    expect(plan).toMatchObject({ code: 'bad_box', message: /has no frame or time/ });
    const ok = planImport(
      entry({ size: null, boxes: [box(20, 2000), { ...box(10, null), crowd: true }] }),
      state(clip, model),
      'objects',
    );
    if (!('kind' in ok) || ok.kind !== 'write') throw new Error(JSON.stringify(ok));
    const drawn = ok.corrections.filter((c) => c.anchor === null);
    expect(drawn.map((c) => [c.frameIndex, c.timeMs, c.crowd])).toEqual([
      [4, 2000, false],
      // A CSV row's iscrowd holds on a clip's frame too.
      [2, 1000, true],
    ]);
  });

  it("refuses a clip's box before its start or past its end, as a box outside the picture", () => {
    const clip = media(4, '/lib/d.mp4', {
      kind: 'video',
      fps: 10,
      width: 160,
      height: 120,
      durationMs: 8000,
    });
    const model = [detection(1, 'cat', 0.1, 0, 0), detection(2, 'cat', 0.1, 4, 2000)];
    const at = (frame: number | null, timeMs: number | null) =>
      planImport(
        entry({ size: null, boxes: [{ ...px('dog', 0, 0, 80, 60), frame, timeMs }] }),
        state(clip, model),
        'objects',
      );
    expect(at(1e15, null)).toMatchObject({
      code: 'bad_box',
      message:
        '/lib/d.mp4: a dog box at frame 1000000000000000 lies past the end of the clip (8.0 s); its labels were not imported.',
    });
    expect(at(null, -1e300)).toMatchObject({ code: 'bad_box', message: /before the start/ });
    expect(at(-3, null)).toMatchObject({ code: 'bad_box', message: /at frame -3 lies before/ });
    expect(at(null, 8050)).toMatchObject({ kind: 'write' });
    expect(at(79, null)).toMatchObject({ kind: 'write' });
  });
});
