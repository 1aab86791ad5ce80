/**
 * The forms a box may take, and each form turned into LabelDesk's top-left corner + size. An
 * object names its form by its keys; a 4-number array does not (x,y,w,h or x1,y1,x2,y2), so it
 * has two candidate forms that decide-box-forms.ts chooses between.
 */
import type { Box, ReadingSettings } from './adapter-types.js';
import { isObject } from './read-values.js';

export type ObjectForm =
  'x,y,w,h' | 'x,y,width,height' | 'left,top,width,height' | 'xmin,ymin,xmax,ymax' | 'x1,y1,x2,y2';
export type ArrayForm = '[x,y,w,h]' | '[x1,y1,x2,y2]';
export type BoxForm = ObjectForm | ArrayForm;

export const ARRAY_FORMS: readonly ArrayForm[] = ['[x,y,w,h]', '[x1,y1,x2,y2]'];

type BoxKey =
  | 'x'
  | 'y'
  | 'w'
  | 'h'
  | 'width'
  | 'height'
  | 'left'
  | 'top'
  | 'xmin'
  | 'ymin'
  | 'xmax'
  | 'ymax'
  | 'x1'
  | 'y1'
  | 'x2'
  | 'y2';

const n = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The form of one raw box: an object form, `array` (undecided), or null when unrecognised. */
export function formOf(raw: unknown): ObjectForm | 'array' | null {
  if (Array.isArray(raw)) return raw.length === 4 && raw.every(n) ? 'array' : null;
  if (!isObject(raw)) return null;
  if (n(raw.x) && n(raw.y)) {
    if (n(raw.w) && n(raw.h)) return 'x,y,w,h';
    if (n(raw.width) && n(raw.height)) return 'x,y,width,height';
  }
  if (n(raw.left) && n(raw.top) && n(raw.width) && n(raw.height)) return 'left,top,width,height';
  if (n(raw.xmin) && n(raw.ymin) && n(raw.xmax) && n(raw.ymax)) return 'xmin,ymin,xmax,ymax';
  if (n(raw.x1) && n(raw.y1) && n(raw.x2) && n(raw.y2)) return 'x1,y1,x2,y2';
  return null;
}

/** Whether the form's x,y is subject to the per-service corner/centre setting. */
export function usesOrigin(form: BoxForm): boolean {
  return form === 'x,y,w,h' || form === 'x,y,width,height' || form === '[x,y,w,h]';
}

function sized(x: number, y: number, w: number, h: number, centre: boolean): Box {
  return centre ? { x: x - w / 2, y: y - h / 2, w, h } : { x, y, w, h };
}

/** The raw box (already known to be of `form`) as corner + size. */
export function toBox(raw: unknown, form: BoxForm, reading: ReadingSettings): Box {
  const centre = reading.boxOrigin === 'centre';
  if (form === '[x,y,w,h]' || form === '[x1,y1,x2,y2]') {
    const [a, b, c, d] = raw as [number, number, number, number];
    return form === '[x,y,w,h]' ? sized(a, b, c, d, centre) : { x: a, y: b, w: c - a, h: d - b };
  }
  const o = raw as Record<BoxKey, number>;
  switch (form) {
    case 'x,y,w,h':
      return sized(o.x, o.y, o.w, o.h, centre);
    case 'x,y,width,height':
      return sized(o.x, o.y, o.width, o.height, centre);
    case 'left,top,width,height':
      return { x: o.left, y: o.top, w: o.width, h: o.height };
    case 'xmin,ymin,xmax,ymax':
      return { x: o.xmin, y: o.ymin, w: o.xmax - o.xmin, h: o.ymax - o.ymin };
    case 'x1,y1,x2,y2':
      return { x: o.x1, y: o.y1, w: o.x2 - o.x1, h: o.y2 - o.y1 };
  }
}

/** How a form is named in notes ("understood as …"). */
export function describeForm(form: BoxForm, reading: ReadingSettings): string {
  if (!usesOrigin(form)) return `${form} (corners)`;
  return `${form} (x,y = ${reading.boxOrigin === 'centre' ? 'centre' : 'top-left corner'})`;
}
