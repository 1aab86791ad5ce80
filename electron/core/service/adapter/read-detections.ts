/**
 * Detections of one answer (an image, or one frame of a clip). Boxes are required (decided by
 * decide-box-forms.ts); the class and the score are read in any recognised form.
 */
import type { AnswerContext, Detection } from './adapter-types.js';
import { DEFAULT_READING } from './adapter-types.js';
import type { RawBoxes, Size } from './decide-box-forms.js';
import { decideBoxes } from './decide-origin.js';
import type { Notes, Problems } from './notes.js';
import { isObject, numberOf, type Json } from './read-values.js';

/** Never used: decideBoxes returns one box pair per item. */
const NO_BOX = { x: 0, y: 0, w: 0, h: 0 };
const LABEL_NAMES = ['label', 'class', 'className', 'class_name', 'name', 'category'] as const;
const INDEX_NAMES = ['classId', 'class_id', 'classIndex', 'class_index', 'class'] as const;
const SCORE_NAMES = ['score', 'confidence', 'conf', 'probability'] as const;

/**
 * More detections than this in one image (or one frame of a clip) is refused as implausible:
 * detection models keep at most a few hundred boxes (COCO's evaluation counts 100 per image).
 * Checked before any detection is read, so an absurd answer costs no per-box work.
 */
export const MAX_DETECTIONS_PER_IMAGE = 10_000;

export interface ReadDetections {
  detections: Detection[];
  derivedSize: Size | null;
}

export function readDetections(
  raw: unknown,
  at: string,
  given: Size | null,
  ctx: AnswerContext,
  notes: Notes,
  problems: Problems,
): ReadDetections | null {
  if (!Array.isArray(raw)) {
    problems.add(at, raw === undefined ? 'required (the interface names it)' : 'expected a list');
    return null;
  }
  if (raw.length > MAX_DETECTIONS_PER_IMAGE) {
    problems.add(
      at,
      `${raw.length.toLocaleString('en')} detections, more than the ${MAX_DETECTIONS_PER_IMAGE.toLocaleString('en')} an image may carry: refused as implausible`,
    );
    return null;
  }
  const items: Json[] = [];
  for (let i = 0; i < raw.length; i++) {
    const item: unknown = raw[i];
    if (isObject(item)) items.push(item);
    else problems.add(`${at}[${i}]`, 'expected an object');
  }
  if (problems.any) return null;
  const decided = decideBoxes(
    items as unknown as RawBoxes[],
    at,
    given,
    ctx.reading ?? DEFAULT_READING,
    notes,
    problems,
  );
  if (!decided) return null;
  const percent = scoresArePercent(items);
  if (percent) notes.understoodAs(`${at}[].score`, 'a percentage (0–100)');
  const detections = items.map((item, i): Detection => {
    const { bbox, bboxPx } = decided.boxes[i] ?? { bbox: NO_BOX, bboxPx: NO_BOX };
    const classId = classIdOf(item);
    return {
      label: labelOf(item, classId, ctx, at, notes),
      classId,
      score: scoreOf(item, percent, at, notes),
      bbox,
      bboxPx,
    };
  });
  return { detections, derivedSize: decided.derivedSize };
}

function scoresArePercent(items: readonly Json[]): boolean {
  for (const item of items) {
    for (const name of SCORE_NAMES) {
      const v = numberOf(item[name]);
      if (v !== null) {
        if (v > 1) return true;
        break;
      }
    }
  }
  return false;
}

function scoreOf(item: Json, percent: boolean, at: string, notes: Notes): number | null {
  if (typeof item.score === 'number') return percent ? item.score / 100 : item.score;
  for (const name of SCORE_NAMES) {
    const v = numberOf(item[name]);
    if (v === null) continue;
    notes.understoodAs(`${at}[].score`, `\`${name}\``);
    return percent ? v / 100 : v;
  }
  notes.notPublished(`${at}[].score`, 'no score (the box has none)');
  return null;
}

function classIdOf(item: Json): number | null {
  for (const name of INDEX_NAMES) {
    const v = item[name];
    if (typeof v === 'number' && Number.isInteger(v)) return v;
  }
  return null;
}

function labelOf(
  item: Json,
  classId: number | null,
  ctx: AnswerContext,
  at: string,
  notes: Notes,
): string {
  if (typeof item.label === 'string') return item.label;
  for (const name of LABEL_NAMES) {
    const v = item[name];
    if (typeof v !== 'string' || v === '') continue;
    notes.understoodAs(`${at}[].label`, `\`${name}\``);
    return v;
  }
  if (classId !== null) {
    const name = classNameOf(classId, ctx);
    if (name !== null) {
      notes.understoodAs(`${at}[].label`, "a class index into the solution's classes");
      return name;
    }
    notes.notPublished(
      `${at}[].label`,
      `"class <index>" (an index not among the solution's classes)`,
    );
    return `class ${classId}`;
  }
  notes.notPublished(`${at}[].label`, '"object" (the detection names no class)');
  return 'object';
}

function classNameOf(classId: number, ctx: AnswerContext): string | null {
  const solution = ctx.solution;
  if (!solution) return null;
  const at = solution.classIds ? solution.classIds.indexOf(classId) : classId;
  return solution.classes[at] ?? null;
}
