/**
 * The boxes after one stored correction, derived from the boxes before (one merge per edit), are
 * exactly those a full merge of the rows after the write gives: for every kind of edit, over
 * random items with re-analysed (moved) anchors, near-duplicate boxes and drawn boxes, and the
 * common edit takes the path that merges the edited box alone.
 */
import { describe, expect, it } from 'vitest';
import { mergeAfterPut } from '../../../../electron/core/review/merge-after-put.js';
import {
  mergeCorrections,
  type MergedBox,
} from '../../../../electron/core/review/merge-corrections.js';
import {
  findBox,
  planEdit,
  type ReviewEdit,
} from '../../../../electron/core/review/review-edits.js';
import type {
  BoxXYWH,
  CorrectionRow,
  DetectionRow,
} from '../../../../electron/core/store/store-types.js';
import { mulberry32 } from '../../../support/seeded-random.js';

const content = { contentHash: 'h1', solution: 'objects' };
const LABELS = ['person', 'car', 'dog'];

function model(r: () => number, frames: number, perFrame: number): DetectionRow[] {
  const rows: DetectionRow[] = [];
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < perFrame; i++) {
      const twin = rows.at(-1);
      // Now and then a near-duplicate of the box before (IoU ≥ 0.9): anchors can pair either.
      const bbox: BoxXYWH =
        twin && twin.frameIndex === f && r() < 0.15
          ? { ...twin.bbox, x: twin.bbox.x + 0.001 }
          : { x: r() * 0.7, y: r() * 0.7, w: 0.05 + r() * 0.2, h: 0.05 + r() * 0.2 };
      rows.push({
        id: rows.length + 1,
        resultId: 3,
        frameIndex: f,
        timeMs: f * 1000,
        label: LABELS[Math.floor(r() * LABELS.length)] as string,
        classId: 0,
        score: 0.3 + r() * 0.6,
        bbox,
        origin: 'model',
        review: 'pending',
      });
    }
  }
  return rows;
}

/** A random edit of a random box (or a drawn box). */
function editOf(r: () => number, boxes: readonly MergedBox[], frames: number): ReviewEdit {
  const box = boxes[Math.floor(r() * boxes.length)];
  const pick = r();
  if (!box || pick < 0.12) {
    const frameIndex = Math.floor(r() * frames);
    const bbox = { x: r() * 0.8, y: r() * 0.8, w: 0.1, h: 0.1 };
    return { kind: 'add', frameIndex, timeMs: frameIndex * 1000, label: 'cat', bbox };
  }
  const ref = { detectionId: box.detectionId, correctionId: box.correctionId };
  const kinds = ['move', 'relabel', 'accept', 'reject', 'reset', 'delete', 'restore', 'track'];
  const kind = kinds[Math.floor(r() * kinds.length)];
  const moved = { ...box.bbox, x: Math.min(0.9, box.bbox.x + (r() - 0.5) * 0.01) };
  switch (kind) {
    case 'move':
      // Sometimes back onto the model's own box: the correction's box goes back to null.
      return { kind: 'move', box: ref, bbox: box.model && r() < 0.2 ? box.model.bbox : moved };
    case 'relabel':
      return { kind: 'relabel', box: ref, label: LABELS[Math.floor(r() * 3)] as string };
    case 'track':
      return { kind: 'track', box: ref, track: r() < 0.5 ? null : 1 + Math.floor(r() * 4) };
    default:
      return { kind, box: ref } as ReviewEdit;
  }
}

const storeOrder = (a: CorrectionRow, b: CorrectionRow) =>
  a.frameIndex - b.frameIndex || a.id - b.id;

/** Stores a planned correction as the store would: a new id, or the row replaced; read back in frame, then id order. */
function store(rows: CorrectionRow[], planned: ReturnType<typeof planEdit>['correction']) {
  const id = planned.id ?? Math.max(0, ...rows.map((c) => c.id)) + 1;
  const row: CorrectionRow = { ...planned, id, track: planned.track ?? null, updatedAt: 0 };
  return { row, rows: [...rows.filter((c) => c.id !== id), row].sort(storeOrder) };
}

/** Re-analysis: the model's boxes moved a little, so anchors pair by overlap, not exactly. */
const reanalysed = (rows: DetectionRow[], r: () => number): DetectionRow[] =>
  rows.map((d, i) => ({
    ...d,
    id: 1000 + i,
    bbox: { ...d.bbox, x: d.bbox.x + (r() - 0.5) * 0.004 },
  }));

describe('mergeAfterPut', () => {
  it('gives what a full merge of the rows after the write gives, edit after edit', () => {
    let incremental = 0;
    let edits = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const r = mulberry32(seed);
      const frames = 1 + Math.floor(r() * 4);
      let rows = model(r, frames, 2 + Math.floor(r() * 8));
      let corrections: CorrectionRow[] = [];
      for (let step = 0; step < 30; step++) {
        if (step === 15) rows = reanalysed(rows, r);
        const before = mergeCorrections(rows, corrections, { includeDeleted: true });
        const edit = editOf(r, before, frames);
        const plan = planEdit(before, edit, content);
        const box = edit.kind === 'add' ? undefined : findBox(before, edit.box);
        const next = store(corrections, plan.correction);
        const after = mergeAfterPut(before, rows, corrections, box, next.row);
        const full = mergeCorrections(rows, next.rows, { includeDeleted: true });
        expect(after.boxes).toEqual(full);
        expect(after.corrections).toEqual(next.rows);
        corrections = next.rows;
        edits++;
        if (after.incremental) incremental++;
      }
    }
    // Most edits merge only the edited box again; contended ones (near-duplicates) merge all.
    expect(incremental).toBeGreaterThan(edits * 0.6);
    expect(incremental).toBeLessThan(edits);
  });

  it('merges only the nudged box of a large item, in place', () => {
    const rows = model(mulberry32(7), 500, 10);
    const before = mergeCorrections(rows, [], { includeDeleted: true });
    const target = before[2345] as MergedBox;
    const ref = { detectionId: target.detectionId, correctionId: null };
    const bbox = { ...target.bbox, x: target.bbox.x + 1 / 640 };
    const plan = planEdit(before, { kind: 'move', box: ref, bbox }, content);
    const { row } = store([], plan.correction);
    const after = mergeAfterPut(before, rows, [], target, row);
    expect(after.incremental).toBe(true);
    expect(after.boxes[2345]).toMatchObject({ correctionId: row.id, bbox, origin: 'edited' });
    expect(after.boxes.filter((b, i) => b !== before[i])).toHaveLength(1);
  });
});
