/**
 * A box in team conflict on the canvas: named with whose version it shows ("cat · lead (you)"),
 * and its other versions beside it ("dog · bob"), each coloured by its class, as the swatch of
 * its row in Boxes is: the member's name is not part of the class.
 */
import { describe, expect, it } from 'vitest';
import {
  boxText,
  paintBoxes,
  type PaintBox,
} from '../../../renderer/src/features/review/box-painter.js';
import { classColour } from '../../../renderer/src/features/review/box-colours.js';

/** A 2D context that records the colour each outline was stroked with, and each text drawn. */
function recordingContext() {
  const strokes: string[] = [];
  const texts: string[] = [];
  const state: Record<string, unknown> = {};
  const ctx = new Proxy(
    {
      strokeRect: () => strokes.push(String(state.strokeStyle)),
      fillText: (t: string) => texts.push(t),
      measureText: (t: string) => ({ width: t.length * 6 }),
    } as Record<string | symbol, unknown>,
    {
      get: (target, k) =>
        k in target ? target[k] : k in state ? state[k as string] : () => undefined,
      set: (_t, k, v) => {
        state[k as string] = v;
        return true;
      },
    },
  );
  return { ctx: ctx as unknown as CanvasRenderingContext2D, strokes, texts };
}

const box = (key: string, label: string, who: string, ghost = false): PaintBox => ({
  key,
  label,
  who,
  score: ghost ? null : 0.61,
  bbox: { x: ghost ? 0.5 : 0.1, y: 0.1, w: 0.3, h: 0.3 },
  review: 'pending',
  ...(ghost ? { ghost: true } : {}),
});

describe('a box in team conflict, painted', () => {
  it('names whose version it is and keeps its class colour', () => {
    const { ctx, strokes, texts } = recordingContext();
    paintBoxes(ctx, {
      boxes: [box('a', 'cat', 'lead (you)'), box('team-version:1', 'dog', 'bob', true)],
      view: { scale: 1, offsetX: 0, offsetY: 0 },
      picture: { width: 640, height: 480 },
      window: { width: 640, height: 480 },
      selected: new Set(),
      selectedColour: '#000',
    });
    expect(strokes).toContain(classColour('cat'));
    expect(strokes).toContain(classColour('dog'));
    expect(strokes).not.toContain(classColour('cat · lead (you)'));
    expect(texts).toEqual(expect.arrayContaining(['cat · lead (you) 0.61', 'dog · bob']));
    expect(boxText({ label: 'cat', score: null, review: 'accepted' })).toBe('cat ✓');
  });
});

describe('a crowd region, painted (issue 24 §1)', () => {
  it('is named a crowd region on the canvas, not only dashed like an interpolated box', () => {
    const { ctx, texts } = recordingContext();
    const crowd: PaintBox = { ...box('c', 'person', ''), score: null, crowd: true };
    paintBoxes(ctx, {
      boxes: [crowd, { ...box('i', 'person', ''), score: null, interpolated: true }],
      view: { scale: 1, offsetX: 0, offsetY: 0 },
      picture: { width: 640, height: 480 },
      window: { width: 640, height: 480 },
      selected: new Set(),
      selectedColour: '#000',
    });
    expect(texts.sort()).toEqual(['person', 'person crowd']);
    expect(boxText({ label: 'person', score: null, review: 'accepted', crowd: true })).toBe(
      'person crowd ✓',
    );
  });
});
