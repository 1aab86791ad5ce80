/**
 * Reads the `bbox` (normalised) and `bboxPx` (analysed pixels) of every detection of one answer.
 * Object forms say what they are. A 4-number array is read as x,y,w,h or as x1,y1,x2,y2 by
 * whichever agrees, for every detection of the answer, with the other box form and with the
 * analysed size when given. When both readings agree (or neither does) nothing decides: the
 * answer is reported as unreadable, never guessed.
 */
import type { Box, ReadingSettings } from './adapter-types.js';
import {
  ARRAY_FORMS,
  describeForm,
  formOf,
  toBox,
  type ArrayForm,
  type BoxForm,
  type ObjectForm,
} from './box-forms.js';
import type { Notes, Problems } from './notes.js';

export interface RawBoxes {
  bbox: unknown;
  bboxPx: unknown;
}

export interface Size {
  width: number;
  height: number;
}

export interface DecidedBoxes {
  boxes: { bbox: Box; bboxPx: Box }[];
  /** The analysed size derived from bbox against bboxPx, when it was not given. */
  derivedSize: Size | null;
}

type Found = ObjectForm | 'array';

/** The problem of arrays both readings fit (decide-origin.ts tells it from a box outside). */
export const UNDECIDED_ARRAYS =
  'nothing decides whether the 4-number arrays are x,y,w,h or x1,y1,x2,y2 (both agree with the other form and the analysed size)';

export function decideForms(
  raws: readonly RawBoxes[],
  at: string,
  given: Size | null,
  reading: ReadingSettings,
  notes: Notes,
  problems: Problems,
): DecidedBoxes | null {
  const found: { raw: RawBoxes; n: Found; p: Found }[] = [];
  let arrayN = false;
  let arrayP = false;
  raws.forEach((raw, i) => {
    const n = formOf(raw.bbox);
    const p = formOf(raw.bboxPx);
    if (!n) problems.add(`${at}[${i}].bbox`, whatIsWrong(raw.bbox));
    if (!p) problems.add(`${at}[${i}].bboxPx`, whatIsWrong(raw.bboxPx));
    if (!n || !p) return;
    found.push({ raw, n, p });
    arrayN ||= n === 'array';
    arrayP ||= p === 'array';
  });
  if (problems.any) return null;
  const choicesN: (ArrayForm | null)[] = arrayN ? [...ARRAY_FORMS] : [null];
  const choicesP: (ArrayForm | null)[] = arrayP ? [...ARRAY_FORMS] : [null];
  const fits: { boxes: DecidedBoxes; n: ArrayForm | null; p: ArrayForm | null }[] = [];
  for (const n of choicesN) {
    for (const p of choicesP) {
      const boxes = found.map((f) => ({
        bbox: toBox(f.raw.bbox, pick(f.n, n), reading),
        bboxPx: toBox(f.raw.bboxPx, pick(f.p, p), reading),
      }));
      // Without arrays the forms are stated, but the two must still agree on where each box is
      // (on their own scale: a wrong corner/centre setting shows here, a rounding does not).
      const checked = agreement(boxes, arrayN || arrayP ? given : null);
      if (checked !== undefined) fits.push({ boxes: { boxes, derivedSize: checked }, n, p });
    }
  }
  const fit = fits.length === 1 ? fits[0] : undefined;
  if (!fit) {
    problems.add(
      `${at}[].bbox/bboxPx`,
      fits.length === 0
        ? arrayN || arrayP
          ? 'the boxes do not agree with each other under any reading of their arrays'
          : `bbox and bboxPx do not agree on where the boxes are (is x,y the ${reading.boxOrigin === 'corner' ? 'centre' : 'corner'}? change the service's box origin setting)`
        : UNDECIDED_ARRAYS,
    );
    return null;
  }
  noteForms(
    `${at}[].bbox`,
    found.map((f) => f.n),
    fit.n,
    reading,
    notes,
  );
  noteForms(
    `${at}[].bboxPx`,
    found.map((f) => f.p),
    fit.p,
    reading,
    notes,
  );
  return {
    boxes: fit.boxes.boxes,
    derivedSize: given ? null : (fit.boxes.derivedSize ?? scaleOf(fit.boxes.boxes, null)),
  };
}

/** An array takes the reading being tried (there always is one when an array was found). */
const pick = (found: Found, choice: ArrayForm | null): BoxForm =>
  found === 'array' ? (choice ?? '[x,y,w,h]') : found;

function whatIsWrong(raw: unknown): string {
  if (raw === undefined || raw === null) return 'required (the interface names it)';
  if (Array.isArray(raw)) return `expected 4 numbers, got ${JSON.stringify(raw).slice(0, 60)}`;
  if (typeof raw === 'object')
    return `not a box form LabelDesk knows (keys ${Object.keys(raw).join(', ')})`;
  return `expected a box, got ${typeof raw}`;
}

function noteForms(
  field: string,
  found: readonly Found[],
  choice: ArrayForm | null,
  reading: ReadingSettings,
  notes: Notes,
): void {
  for (const f of new Set(found)) {
    const form = pick(f, choice);
    if (form === 'x,y,w,h' && reading.boxOrigin === 'corner') continue;
    notes.understoodAs(field, describeForm(form, reading));
  }
}

const TOLERANCE_PX = 1.5;

/** The pixels per unit of the normalised box: given, or read off the largest box. */
function scaleOf(boxes: readonly { bbox: Box; bboxPx: Box }[], given: Size | null): Size | null {
  if (given) return given;
  let sx: number | null = null;
  let sy: number | null = null;
  let bestW = 0;
  let bestH = 0;
  for (const { bbox, bboxPx } of boxes) {
    if (bbox.w > bestW) [bestW, sx] = [bbox.w, bboxPx.w / bbox.w];
    if (bbox.h > bestH) [bestH, sy] = [bbox.h, bboxPx.h / bbox.h];
  }
  return sx !== null && sy !== null ? { width: Math.round(sx), height: Math.round(sy) } : null;
}

/**
 * `undefined` when this reading is impossible (a normalised box outside 0–1, a negative size, or
 * bboxPx not bbox × the analysed size); otherwise the scale it implies (null: no box to tell).
 */
function agreement(
  boxes: readonly { bbox: Box; bboxPx: Box }[],
  given: Size | null,
): Size | null | undefined {
  const scale = scaleOf(boxes, given);
  for (const { bbox: b, bboxPx: p } of boxes) {
    if (!(b.w >= 0 && b.h >= 0 && p.w >= 0 && p.h >= 0)) return undefined;
    if (b.x < -0.01 || b.y < -0.01 || b.x + b.w > 1.01 || b.y + b.h > 1.01) return undefined;
    if (!scale) continue;
    const tolX = TOLERANCE_PX + 0.002 * scale.width;
    const tolY = TOLERANCE_PX + 0.002 * scale.height;
    if (Math.abs(p.x - b.x * scale.width) > tolX || Math.abs(p.w - b.w * scale.width) > tolX)
      return undefined;
    if (Math.abs(p.y - b.y * scale.height) > tolY || Math.abs(p.h - b.h * scale.height) > tolY)
      return undefined;
  }
  return scale;
}
