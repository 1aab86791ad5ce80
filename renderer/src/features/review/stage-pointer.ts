/**
 * What a press on the stage starts: a pan, drawing a box, resizing by a handle, moving the
 * selection, or nothing (a click on the empty picture clears the selection). Pure.
 */
import type { NormBox, Size } from '@shared/geometry/box-math.js';
import type { Point } from '@shared/geometry/orientation.js';
import { screenToNormalised, type View } from '@shared/geometry/viewport.js';
import type { PaintBox } from './box-painter.js';
import { boxOnScreen } from './box-painter.js';
import type { HitGrid } from './hit-grid.js';
import { handleAt, type Handle } from './stage-view.js';

export type Gesture =
  | { kind: 'pan'; last: Point }
  | { kind: 'draw'; from: Point; to: Point }
  | { kind: 'resize'; key: string; handle: Handle; from: Point; start: NormBox }
  | { kind: 'move'; from: Point; start: Map<string, NormBox>; moved: boolean }
  | { kind: 'none' };

export interface PressContext {
  view: View;
  picture: Size;
  grid: HitGrid<PaintBox>;
  selected: ReadonlySet<string>;
  byKey: ReadonlyMap<string, PaintBox>;
  drawMode: boolean;
  pan: boolean;
  shift: boolean;
}

export interface PressResult {
  gesture: Gesture;
  /** The selection after the press (null: unchanged). */
  selection: Set<string> | null;
}

const HANDLE_RADIUS = 6;
const EDGE_SLOP_PX = 3;

export function press(at: Point, c: PressContext): PressResult {
  if (c.pan) return { gesture: { kind: 'pan', last: at }, selection: null };
  const n = screenToNormalised(c.view, c.picture, at);
  if (c.drawMode) return { gesture: { kind: 'draw', from: n, to: n }, selection: null };
  if (!c.shift && c.selected.size === 1) {
    const [key = ''] = c.selected;
    const box = c.byKey.get(key);
    if (box) {
      const handle = handleAt(boxOnScreen(box.bbox, c.view, c.picture), at, HANDLE_RADIUS);
      if (handle) {
        return {
          gesture: { kind: 'resize', key: box.key, handle, from: n, start: box.bbox },
          selection: null,
        };
      }
    }
  }
  const slop = EDGE_SLOP_PX / (c.view.scale * Math.max(1, c.picture.width));
  const hit = c.grid.at(n.x, n.y, slop);
  if (!hit) {
    return { gesture: { kind: 'none' }, selection: c.shift ? null : new Set() };
  }
  let selection: Set<string>;
  if (c.shift) {
    selection = new Set(c.selected);
    if (selection.has(hit.key)) selection.delete(hit.key);
    else selection.add(hit.key);
  } else selection = c.selected.has(hit.key) ? new Set(c.selected) : new Set([hit.key]);
  if (!selection.has(hit.key)) return { gesture: { kind: 'none' }, selection };
  const start = new Map<string, NormBox>();
  for (const key of selection) {
    const b = c.byKey.get(key);
    if (b) start.set(key, b.bbox);
  }
  return { gesture: { kind: 'move', from: n, start, moved: false }, selection };
}
