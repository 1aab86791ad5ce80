/** The corrected set: every kind of edit over the model's boxes, and re-analysis under them. */
import { describe, expect, it } from 'vitest';
import { boxesToAutoAccept } from '../../../../electron/core/review/auto-accept.js';
import {
  mergeCorrections,
  mergeInPlace,
  type MergedBox,
} from '../../../../electron/core/review/merge-corrections.js';
import { planEdit, type ReviewEdit } from '../../../../electron/core/review/review-edits.js';
import type {
  BoxXYWH,
  CorrectionRow,
  DetectionRow,
} from '../../../../electron/core/store/store-types.js';

const content = { contentHash: 'h1', solution: 'objects' };
let nextDetection = 1;

function det(label: string, bbox: BoxXYWH, over: Partial<DetectionRow> = {}): DetectionRow {
  return {
    id: nextDetection++,
    resultId: 7,
    frameIndex: 0,
    timeMs: null,
    label,
    classId: 3,
    score: 0.8,
    bbox,
    origin: 'model',
    review: 'pending',
    ...over,
  };
}

/** A tiny in-memory correction table, applying edits as the store would. */
class Corrections {
  rows: CorrectionRow[] = [];
  apply(model: DetectionRow[], edit: ReviewEdit): ReviewEdit {
    const boxes = mergeCorrections(model, this.rows, { includeDeleted: true });
    const plan = planEdit(boxes, edit, content);
    const id = plan.correction.id ?? this.rows.length + 1;
    const before = this.rows.find((r) => r.id === id);
    const row: CorrectionRow = {
      ...plan.correction,
      // Kept when the write leaves it out, as the store does.
      personMade: plan.correction.personMade ?? before?.personMade,
      id,
      track: plan.correction.track ?? null,
      updatedAt: 0,
    };
    this.rows = [...this.rows.filter((r) => r.id !== id), row];
    return plan.inverse(row);
  }
  shown(model: DetectionRow[]): MergedBox[] {
    return mergeCorrections(model, this.rows);
  }
}

const ref = (b: MergedBox) => ({ detectionId: b.detectionId, correctionId: b.correctionId });
const A = { x: 0.1, y: 0.1, w: 0.2, h: 0.2 };
const B = { x: 0.5, y: 0.5, w: 0.3, h: 0.3 };

describe('mergeCorrections', () => {
  it('without corrections shows the model boxes as they came, pending', () => {
    const model = [det('cat', A), det('dog', B)];
    const shown = mergeCorrections(model, []);
    expect(shown.map((b) => [b.label, b.origin, b.review, b.key])).toEqual([
      ['cat', 'model', 'pending', `d${model[0]!.id}`],
      ['dog', 'model', 'pending', `d${model[1]!.id}`],
    ]);
  });

  it('move, resize, relabel, accept, reject, delete, add, and each inverse undoes it', () => {
    const model = [det('cat', A), det('dog', B)];
    const c = new Corrections();
    const [cat] = c.shown(model);
    const undoMove = c.apply(model, { kind: 'move', box: ref(cat!), bbox: { ...A, x: 0.2 } });
    let shown = c.shown(model);
    expect(shown[0]).toMatchObject({ label: 'cat', origin: 'edited', bbox: { ...A, x: 0.2 } });
    expect(shown[0]!.model?.bbox).toEqual(A);

    c.apply(model, {
      kind: 'resize',
      box: ref(shown[0]!),
      bbox: { x: 0.2, y: 0.1, w: 0.4, h: 0.3 },
    });
    c.apply(model, { kind: 'relabel', box: ref(c.shown(model)[1]!), label: 'wolf' });
    shown = c.shown(model);
    expect(shown.map((b) => [b.label, b.origin])).toEqual([
      ['cat', 'edited'],
      ['wolf', 'edited'],
    ]);
    expect(shown[1]!.classId).toBeNull();

    const undoAccept = c.apply(model, { kind: 'accept', box: ref(shown[0]!) });
    expect(undoAccept.kind).toBe('reset');
    c.apply(model, { kind: 'reject', box: ref(shown[1]!) });
    expect(c.shown(model).map((b) => b.review)).toEqual(['accepted', 'rejected']);

    const undoAdd = c.apply(model, {
      kind: 'add',
      frameIndex: 0,
      timeMs: null,
      label: 'bird',
      bbox: { x: 0.8, y: 0.8, w: 0.5, h: 0.5 },
    });
    shown = c.shown(model);
    const bird = shown[2]!;
    // Drawn boxes are the person's: accepted, no model score (issue 24: it was 1), clamped to the picture.
    expect(bird).toMatchObject({ label: 'bird', origin: 'added', review: 'accepted', score: null });
    expect(bird.bbox.x + bird.bbox.w).toBeCloseTo(1);
    expect(bird.key).toBe(`c${bird.correctionId}`);

    const undoDelete = c.apply(model, { kind: 'delete', box: ref(shown[0]!) });
    expect(c.shown(model).map((b) => b.label)).toEqual(['wolf', 'bird']);
    expect(undoDelete.kind).toBe('restore');
    c.apply(model, undoDelete);
    expect(c.shown(model).map((b) => b.label)).toEqual(['cat', 'wolf', 'bird']);

    c.apply(model, undoAdd);
    expect(c.shown(model).map((b) => b.label)).toEqual(['cat', 'wolf']);
    c.apply(model, undoAccept);
    expect(c.shown(model)[0]!.review).toBe('pending');

    // Moving back to where the model had it makes the box the model's again (apart from its size).
    c.apply(model, { kind: 'resize', box: ref(c.shown(model)[0]!), bbox: { ...A, x: 0.2 } });
    c.apply(model, undoMove);
    expect(c.shown(model)[0]).toMatchObject({ origin: 'model', bbox: A });
    // The model's boxes themselves never changed.
    expect(model[0]!.bbox).toEqual(A);
    expect(model[1]!.label).toBe('dog');
  });

  it('re-analysis: corrections follow a box the model moved a little; new boxes are pending', () => {
    const c = new Corrections();
    const first = [det('cat', A), det('dog', B)];
    c.apply(first, { kind: 'relabel', box: ref(c.shown(first)[0]!), label: 'lynx' });
    c.apply(first, { kind: 'accept', box: ref(c.shown(first)[1]!) });
    // The model now returns the cat 1 % to the right (IoU ≈ 0.9+), the dog unchanged, and a new bird.
    const second = [
      det('cat', { ...A, x: A.x + 0.002 }, { score: 0.7 }),
      det('bird', { x: 0.7, y: 0.1, w: 0.1, h: 0.1 }),
      det('dog', B),
    ];
    const shown = c.shown(second);
    expect(shown.map((b) => [b.label, b.review, b.origin])).toEqual([
      ['lynx', 'pending', 'edited'],
      ['bird', 'pending', 'model'],
      ['dog', 'accepted', 'model'],
    ]);
    // It stands on the new model box: its id, its score.
    expect(shown[0]!.detectionId).toBe(second[0]!.id);
    expect(shown[0]!.score).toBe(0.7);
  });

  it('re-analysis: a deleted box returned again stays deleted; one that moved away comes back pending', () => {
    const c = new Corrections();
    const first = [det('cat', A), det('dog', B)];
    c.apply(first, { kind: 'delete', box: ref(c.shown(first)[0]!) });
    c.apply(first, { kind: 'delete', box: ref(c.shown(first)[0]!) });
    expect(c.shown(first)).toEqual([]);
    const again = [det('cat', A), det('dog', { ...B, x: 0.6 })];
    const shown = c.shown(again);
    expect(shown.map((b) => [b.label, b.review])).toEqual([['dog', 'pending']]);
    expect(shown[0]!.detectionId).toBe(again[1]!.id);
    // The deletion of the dog is kept, silently, as long as no box matches it.
    const all = mergeCorrections(again, c.rows, { includeDeleted: true });
    expect(all.filter((b) => b.deleted).map((b) => [b.label, b.detectionId])).toEqual([
      ['cat', again[0]!.id],
      ['dog', null],
    ]);
  });

  it('re-analysis: an edited or accepted box whose model box is gone stays, standing on its anchor', () => {
    const c = new Corrections();
    const first = [det('cat', A), det('dog', B), det('cow', { x: 0, y: 0.6, w: 0.1, h: 0.1 })];
    c.apply(first, { kind: 'move', box: ref(c.shown(first)[0]!), bbox: { ...A, y: 0.15 } });
    c.apply(first, { kind: 'accept', box: ref(c.shown(first)[1]!) });
    c.apply(first, { kind: 'reset', box: ref(c.shown(first)[2]!) });
    const shown = c.shown([]);
    expect(shown.map((b) => [b.label, b.origin, b.review, b.detectionId])).toEqual([
      ['cat', 'edited', 'pending', null],
      ['dog', 'edited', 'accepted', null],
    ]);
    expect(shown[0]!.bbox).toEqual({ ...A, y: 0.15 });
    expect(shown[1]!.score).toBe(0.8);
  });

  it('pairs each correction with one box: same label first, then the best overlap', () => {
    const c = new Corrections();
    const first = [det('cat', A), det('dog', A)];
    c.apply(first, { kind: 'delete', box: ref(c.shown(first)[1]!) });
    const again = [det('dog', A), det('cat', A)];
    expect(c.shown(again).map((b) => b.label)).toEqual(['cat']);
  });

  it('boxes of a clip stay per frame: a correction never pairs across frames', () => {
    const c = new Corrections();
    const model = [det('cat', A, { frameIndex: 0 }), det('cat', A, { frameIndex: 1 })];
    c.apply(model, { kind: 'reject', box: ref(c.shown(model)[1]!) });
    c.apply(model, { kind: 'add', frameIndex: 0, timeMs: 0, label: 'cat', bbox: B });
    expect(c.shown(model).map((b) => [b.frameIndex, b.origin, b.review])).toEqual([
      [0, 'model', 'pending'],
      [0, 'added', 'accepted'],
      [1, 'model', 'rejected'],
    ]);
  });

  it('an edit of a box that is gone is refused with a code', () => {
    expect(() =>
      planEdit([], { kind: 'accept', box: { detectionId: 99, correctionId: null } }, content),
    ).toThrow(expect.objectContaining({ code: 'unknown_box' }));
  });

  it('the lean merge of exports shows exactly the same boxes', () => {
    const c = new Corrections();
    const model = () => [
      det('cat', A),
      det('dog', B),
      det('cow', { x: 0, y: 0.6, w: 0.1, h: 0.1 }),
    ];
    const first = model();
    c.apply(first, { kind: 'move', box: ref(c.shown(first)[0]!), bbox: { ...A, y: 0.15 } });
    c.apply(first, { kind: 'relabel', box: ref(c.shown(first)[1]!), label: 'wolf' });
    c.apply(first, { kind: 'accept', box: ref(c.shown(first)[1]!) });
    c.apply(first, { kind: 'delete', box: ref(c.shown(first)[2]!) });
    c.apply(first, { kind: 'add', frameIndex: 0, timeMs: null, label: 'kite', bbox: B });
    const pick = (b: DetectionRow) => [b.label, b.classId, b.bbox, b.origin, b.review];
    for (const boxes of [first, [first[1]!, det('cow', { x: 0, y: 0.6, w: 0.1, h: 0.1 })], []]) {
      const copy = boxes.map((b) => ({ ...b }));
      expect(mergeInPlace(copy, c.rows).map(pick)).toEqual(
        mergeCorrections(boxes, c.rows).map(pick),
      );
    }
  });

  it("an import's label on a model box is the person's: no score anywhere, the model's kept", () => {
    const c = new Corrections();
    const model = [det('cat', A, { score: 0.2 }), det('dog', B, { score: 0.9 })];
    c.apply(model, { kind: 'relabel', box: ref(c.shown(model)[0]!), label: 'lynx' });
    c.apply(model, { kind: 'accept', box: ref(c.shown(model)[1]!) });
    // What an import writes: the same rows, marked the person's.
    c.rows = c.rows.map((r) => ({ ...r, personMade: true }));
    expect(c.shown(model).map((b) => [b.label, b.score, b.model?.score])).toEqual([
      ['lynx', null, 0.2],
      ['dog', null, 0.9],
    ]);
    const copy = model.map((b) => ({ ...b }));
    expect(mergeInPlace(copy, c.rows).map((b) => b.score)).toEqual([null, null]);
    // Standing on its anchor once the model box is gone: still no score.
    expect(c.shown([]).map((b) => [b.label, b.score])).toEqual([
      ['lynx', null],
      ['dog', null],
    ]);
    // Set back to pending on the model's own box: no rule takes the person's box.
    c.apply(model, { kind: 'reset', box: ref(c.shown(model)[1]!) });
    const dog = mergeCorrections(model, c.rows).filter((b) => b.label === 'dog');
    expect(dog.map((b) => [b.review, b.origin, b.score])).toEqual([['pending', 'model', null]]);
    const rule = { target: 0.95, thresholds: new Map([['dog', 0.5]]) };
    expect(boxesToAutoAccept(dog, rule)).toEqual([]);
  });
});

describe('a keyframe between samples in the corrected set (issue 22)', () => {
  // Sample 5 and clip frame 5 are different frames: the keyframe is a field, not a sign.
  const sample = (over: Partial<DetectionRow> = {}) =>
    det('dog', A, { frameIndex: 5, timeMs: 2500, ...over });
  const onClipFrame5: CorrectionRow = {
    id: 1,
    ...content,
    frameIndex: 5,
    keyframe: true,
    timeMs: 500,
    anchor: { label: 'dog', score: 0.8, bbox: A },
    label: 'wolf',
    bbox: null,
    review: 'accepted',
    deleted: false,
    track: 2,
    updatedAt: 0,
  };

  it('never pairs with the model box of the sample of the same number', () => {
    const model = [sample()];
    for (const shown of [
      mergeCorrections(model, [onClipFrame5]),
      mergeInPlace([sample()], [onClipFrame5]),
    ]) {
      expect(shown.map((b) => [b.frameIndex, b.keyframe, b.label])).toEqual([
        // Keyframes first, as the store orders them; the sample's box stays the model's.
        [5, true, 'wolf'],
        [5, undefined, 'dog'],
      ]);
    }
  });

  it('keeps its flag when a person moves it', () => {
    const table = new Corrections();
    table.rows = [{ ...onClipFrame5, anchor: null, label: 'dog', bbox: A }];
    const [box] = table.shown([]);
    table.apply([], { kind: 'move', box: ref(box!), bbox: { ...A, x: 0.3 } });
    expect(table.shown([]).map((b) => [b.frameIndex, b.keyframe, b.bbox.x])).toEqual([
      [5, true, 0.3],
    ]);
  });
});
