/**
 * Issue 28: a clip's model box the tracker placed in no track is marked unconfirmed in the video
 * review: told apart from boxes in tracks (and from a person's, accepted, rejected or
 * interpolated boxes), and drawn dotted on the stage, unlike any other box.
 */
import { describe, expect, it } from 'vitest';
import type { ReviewBox } from '../../../electron/shared/contract/review-schemas.js';
import { paintBoxes, type PaintBox } from '../../../renderer/src/features/review/box-painter.js';
import {
  isUnplaced,
  markUnplaced,
} from '../../../renderer/src/features/video-review/unplaced-boxes.js';

const box = (key: string, trackId: number | null, over: Partial<ReviewBox> = {}): ReviewBox => ({
  key,
  detectionId: 1,
  correctionId: null,
  frameIndex: 0,
  timeMs: 0,
  label: 'person',
  score: 0.8,
  bbox: { x: 0.1 * key.length, y: 0.1, w: 0.1, h: 0.2 },
  origin: 'model',
  review: 'pending',
  deleted: false,
  model: null,
  trackId,
  rule: null,
  ...over,
});

/** A 2D context that records the dash pattern each box outline was stroked with. */
function recordingContext() {
  const strokes: string[] = [];
  let dash: number[] = [];
  const ctx = new Proxy(
    {
      setLineDash: (d: number[]) => (dash = d),
      strokeRect: () => strokes.push(dash.join(',') || 'solid'),
      measureText: (t: string) => ({ width: t.length * 6 }),
    } as Record<string | symbol, unknown>,
    {
      get: (target, k) => (k in target ? target[k] : () => undefined),
      set: () => true,
    },
  );
  return { ctx: ctx as unknown as CanvasRenderingContext2D, strokes };
}

describe('boxes the tracker could not place, in the video review', () => {
  it('are the pending model boxes in no track, and only those', () => {
    expect(isUnplaced(box('a', null))).toBe(true);
    expect(isUnplaced(box('a', 3))).toBe(false);
    expect(isUnplaced(box('a', null, { origin: 'added', score: null }))).toBe(false);
    expect(isUnplaced(box('a', null, { review: 'rejected' }))).toBe(false);
    expect(isUnplaced(box('a', null, { review: 'accepted' }))).toBe(false);
    expect(isUnplaced(box('a', null, { deleted: true }))).toBe(false);
    expect(isUnplaced({ ...box('a', null), interpolated: true })).toBe(false);
  });

  it('are flagged to be drawn apart; a frame without any keeps its array', () => {
    const placed = [box('a', 1), box('bb', 2)];
    expect(markUnplaced(placed)).toBe(placed);
    const marked = markUnplaced([box('a', 1), box('bb', null)]);
    expect(marked.map((b) => [b.key, b.unconfirmed === true])).toEqual([
      ['a', false],
      ['bb', true],
    ]);
  });

  it('are drawn dotted, unlike boxes in tracks and interpolated ones', () => {
    const { ctx, strokes } = recordingContext();
    const boxes: PaintBox[] = [
      ...markUnplaced([box('a', 1), box('bb', null)]),
      { ...box('ccc', 2), interpolated: true },
    ];
    paintBoxes(ctx, {
      boxes,
      view: { scale: 1, offsetX: 0, offsetY: 0 },
      picture: { width: 640, height: 480 },
      window: { width: 640, height: 480 },
      selected: new Set(),
      selectedColour: '#00f',
    });
    expect(strokes.sort()).toEqual(['2,3', '6,4', 'solid']);
  });
});
