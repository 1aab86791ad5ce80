/**
 * What a COCO import keeps of the fields LabelDesk does not edit, so a COCO export gives them
 * back: per annotation its id, area and segmentation (and any other field) with the box they were
 * given for (once a person moves the box they no longer describe it and are recomputed or left
 * out); per image its id and other fields; per dataset its info, licenses and category ids.
 */

import type { CocoKeptAnnotation } from '../store/coco-kept-types.js';

export type {
  CocoKeptAnnotation,
  CocoKeptCategory,
  CocoKeptDataset,
  CocoKeptImage,
} from '../store/coco-kept-types.js';

/** The fields of `object` but `skip`, or an empty object. */
export function otherFields(object: object, skip: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // for…in, not Object.entries: no pair array per field (a million annotations).
  for (const k in object) {
    if (Object.hasOwn(object, k) && !skip.includes(k))
      out[k] = (object as Record<string, unknown>)[k];
  }
  return out;
}

const ANNOTATION_OWN = ['id', 'image_id', 'category_id', 'bbox', 'iscrowd', 'score', 'area'];
/** Besides its own fields, the segmentation is kept apart from the other fields. */
const ANNOTATION_SKIP = [...ANNOTATION_OWN, 'segmentation'];

/**
 * An annotation's kept fields, from the text stored with its box: the annotation as its file gave
 * it (an import slices it from the file rather than writing the kept fields out anew: a million
 * annotations' numbers turned back into text were 1.3-1.7 s of reading a 100k-image COCO, before
 * any write could start), or the kept fields alone (`CocoKeptAnnotation`, as imports before
 * stored them; they never hold an `image_id`, which every imported annotation has). Null when
 * there are none or they cannot be read.
 */
export function readKeptAnnotation(json: string | null | undefined): CocoKeptAnnotation | null {
  if (!json) return null;
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const kept: CocoKeptAnnotation = Object.hasOwn(v, 'image_id')
    ? {
        id: v['id'],
        bbox: v['bbox'] as number[],
        area: v['area'],
        segmentation: v['segmentation'],
        extra: otherFields(v, ANNOTATION_SKIP),
      }
    : (v as unknown as CocoKeptAnnotation);
  return Array.isArray(kept.bbox) && kept.bbox.length === 4 ? kept : null;
}
