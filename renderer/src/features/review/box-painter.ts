/**
 * Draws boxes on a Canvas 2D context in window pixels: grouped by class colour (one style change
 * per colour), only the boxes in view, labels only when they can be read, never over each other
 * (label-layout.ts).
 * Shared by image and video review.
 */
import type { NormBox, Size } from '@shared/geometry/box-math.js';
import type { View } from '@shared/geometry/viewport.js';
import { classColour } from './box-colours.js';
import { placeLabels } from './label-layout.js';
import { handlePoints, type Rect } from './stage-view.js';

export interface PaintBox {
  key: string;
  label: string;
  /** Whose version of a box in team conflict this is, named after the class (not coloured by it). */
  who?: string;
  /** Null: a person's box, shown without a score. */
  score: number | null;
  bbox: NormBox;
  review: 'pending' | 'accepted' | 'rejected';
  /** Accepted by an auto-accept rule rather than by a person: marked apart. */
  rule?: string | null;
  /** A clip track's box between its anchors (interpolated): drawn dashed. */
  interpolated?: boolean;
  /** A crowd region (COCO's `iscrowd`): drawn dashed too. */
  crowd?: boolean;
  /** Another team member's version of a box in conflict: dashed, and not picked by a click. */
  ghost?: boolean;
  /** A clip's box the tracker placed in no track: drawn dotted (video-review/unplaced-boxes.ts). */
  unconfirmed?: boolean;
}

export interface PaintInput {
  boxes: readonly PaintBox[];
  view: View;
  picture: Size;
  window: Size;
  selected: ReadonlySet<string>;
  /** Boxes being dragged, drawn where they are now instead of where they were saved. */
  preview?: ReadonlyMap<string, NormBox>;
  /** A box being drawn. */
  drawing?: NormBox | null;
  selectedColour: string;
}

/** Above this many boxes in view, labels would overlap into noise: only the selected are named. */
const MAX_LABELS = 400;
const LABEL_H = 15;
const widths = new Map<string, number>();

function textWidth(ctx: CanvasRenderingContext2D, text: string): number {
  let w = widths.get(text);
  if (w === undefined) {
    w = ctx.measureText(text).width + 6;
    if (widths.size > 5000) widths.clear();
    widths.set(text, w);
  }
  return w;
}

export function boxText(
  b: Pick<PaintBox, 'label' | 'score' | 'review' | 'rule' | 'who' | 'crowd'>,
): string {
  const mark =
    b.review === 'accepted' ? (b.rule ? ' ✓ rule' : ' ✓') : b.review === 'rejected' ? ' ✗' : '';
  // Dashed alone is shared with interpolated and other members' boxes: a crowd region says so.
  const crowd = b.crowd ? ' crowd' : '';
  return `${b.label}${crowd}${b.who ? ` · ${b.who}` : ''}${b.score === null ? '' : ` ${b.score.toFixed(2)}`}${mark}`;
}

function toScreen(b: NormBox, view: View, picture: Size): Rect {
  const k = view.scale;
  return {
    x: view.offsetX + b.x * picture.width * k,
    y: view.offsetY + b.y * picture.height * k,
    w: b.w * picture.width * k,
    h: b.h * picture.height * k,
  };
}

/** Draws everything; returns how many boxes were in view (what the benchmark counts). */
export function paintBoxes(ctx: CanvasRenderingContext2D, input: PaintInput): number {
  const { view, picture, window, selected, preview } = input;
  ctx.clearRect(0, 0, window.width, window.height);
  const byColour = new Map<string, Rect[]>();
  const rejected: Rect[] = [];
  const dashed: { r: Rect; colour: string }[] = [];
  const dotted: { r: Rect; colour: string }[] = [];
  const named: Array<{ r: Rect; b: PaintBox }> = [];
  const chosen: Rect[] = [];
  let inView = 0;
  for (const b of input.boxes) {
    const r = toScreen(preview?.get(b.key) ?? b.bbox, view, picture);
    if (r.x > window.width || r.y > window.height || r.x + r.w < 0 || r.y + r.h < 0) continue;
    inView++;
    if (selected.has(b.key)) {
      chosen.push(r);
      named.push({ r, b });
      continue;
    }
    if (b.review === 'rejected') rejected.push(r);
    else if (b.interpolated || b.crowd || b.ghost) dashed.push({ r, colour: classColour(b.label) });
    else if (b.unconfirmed) dotted.push({ r, colour: classColour(b.label) });
    else {
      const colour = classColour(b.label);
      let list = byColour.get(colour);
      if (!list) byColour.set(colour, (list = []));
      list.push(r);
    }
    if (named.length < MAX_LABELS) named.push({ r, b });
  }
  const labels = inView <= MAX_LABELS;
  ctx.lineWidth = 1.5;
  // One strokeRect per box, grouped by colour: in software raster (no GPU) a single path of
  // thousands of rects costs ~6× more to rasterise than the same rects stroked one by one.
  for (const [colour, rects] of byColour) {
    ctx.strokeStyle = colour;
    for (const r of rects) ctx.strokeRect(r.x, r.y, r.w, r.h);
  }
  for (const [pattern, list] of [
    [[6, 4], dashed],
    [[2, 3], dotted],
  ] as const) {
    if (list.length === 0) continue;
    ctx.setLineDash([...pattern]);
    for (const { r, colour } of list) {
      ctx.strokeStyle = colour;
      ctx.strokeRect(r.x, r.y, r.w, r.h);
    }
    ctx.setLineDash([]);
  }
  if (rejected.length > 0) {
    ctx.setLineDash([4, 4]);
    ctx.strokeStyle = '#9aa0a6';
    for (const r of rejected) ctx.strokeRect(r.x, r.y, r.w, r.h);
    ctx.setLineDash([]);
  }
  ctx.font = '600 11px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  const shown = named
    .filter(({ b }) => labels || selected.has(b.key))
    .map(({ r, b }) => ({ r, b, text: boxText(b) }))
    .map((l) => ({ ...l, box: l.r, width: textWidth(ctx, l.text) }));
  const spots = placeLabels(shown, LABEL_H);
  shown.forEach(({ r, b, text, width: tw }, i) => {
    const isChosen = selected.has(b.key);
    const ty = spots[i]?.y ?? r.y;
    ctx.fillStyle = isChosen
      ? input.selectedColour
      : b.review === 'rejected'
        ? '#9aa0a6'
        : classColour(b.label);
    ctx.fillRect(r.x, ty, tw, LABEL_H);
    ctx.fillStyle = isChosen ? '#fff' : '#000';
    ctx.fillText(text, r.x + 3, ty + 2);
  });
  ctx.lineWidth = 3;
  ctx.strokeStyle = input.selectedColour;
  for (const r of chosen) {
    ctx.strokeRect(r.x, r.y, r.w, r.h);
    if (chosen.length > 50) continue;
    ctx.fillStyle = '#fff';
    for (const h of handlePoints(r)) {
      ctx.fillRect(h.x - 4, h.y - 4, 8, 8);
      ctx.strokeRect(h.x - 4, h.y - 4, 8, 8);
    }
  }
  if (input.drawing) {
    const r = toScreen(input.drawing, view, picture);
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 2;
    ctx.strokeRect(r.x, r.y, r.w, r.h);
    ctx.setLineDash([]);
  }
  return inView;
}

export { toScreen as boxOnScreen };
