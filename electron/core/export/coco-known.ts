/**
 * The ids and fields a COCO import kept (core/import/coco-kept.ts), as a COCO export uses them:
 * a file or class that came from the import keeps its image or category id; new ones get ids
 * past every kept one, so none collides. An annotation keeps its id, and its area and
 * segmentation while its box is still the one imported.
 */
import type { CocoKeptDataset, CocoKeptImage } from '../import/coco-kept.js';
import { readKeptAnnotation } from '../import/coco-kept.js';

export interface CocoKnown {
  /** Kept images by media id. */
  images: ReadonlyMap<number, CocoKeptImage>;
  dataset: CocoKeptDataset;
  /** The largest kept annotation id (0: none). */
  maxAnnotationId: number;
}

export const NO_COCO_KNOWN: CocoKnown = {
  images: new Map(),
  dataset: { info: null, licenses: null, categories: [] },
  maxAnnotationId: 0,
};

const numericIds = (ids: Iterable<unknown>) => {
  let max = 0;
  for (const id of ids) if (typeof id === 'number' && Number.isFinite(id)) max = Math.max(max, id);
  return max;
};

/** Image ids: a kept one, else the next past every kept one. */
export class CocoImageIds {
  private next: number;
  private readonly used = new Set<unknown>();
  constructor(private readonly known: CocoKnown) {
    this.next = numericIds([...known.images.values()].map((i) => i.imageId)) + 1;
  }
  of(mediaId: number): { id: unknown; extra: Record<string, unknown> } {
    const kept = this.known.images.get(mediaId);
    // Two library files with one kept id (a copy of a photo): the second gets a new one.
    if (kept && !this.used.has(kept.imageId)) {
      this.used.add(kept.imageId);
      return { id: kept.imageId, extra: kept.extra };
    }
    return { id: this.next++, extra: {} };
  }
}

/** Category ids: the kept ones, then new labels past the largest. */
export class CocoCategoryIds {
  private readonly ids = new Map<string, number>();
  private readonly extras = new Map<string, Record<string, unknown>>();
  private next: number;
  constructor(known: CocoKnown) {
    for (const c of known.dataset.categories) {
      this.ids.set(c.label, c.id);
      this.extras.set(c.label, c.extra);
    }
    // COCO ids start at 1: many tools treat category 0 as background.
    this.next = numericIds(this.ids.values()) + 1;
  }
  idOf(label: string): number {
    let id = this.ids.get(label);
    if (id === undefined) this.ids.set(label, (id = this.next++));
    return id;
  }
  /** Every category, in id order, as COCO writes it. */
  list(): { id: number; name: string; supercategory?: unknown }[] {
    return [...this.ids]
      .sort((a, b) => a[1] - b[1])
      .map(([name, id]) => ({ supercategory: '', ...this.extras.get(name), id, name }));
  }
}

const NO_EXTRA: Record<string, unknown> = Object.freeze({});

/**
 * An annotation's kept fields, given its pixel box as exported now. Ids used: the kept ones in a
 * set, the fresh ones as the range [first, next) minus the kept ones in it (fresh ids skip only
 * those), so a million fresh ids need no set of a million entries.
 */
export class CocoAnnotationIds {
  private readonly first: number;
  private next: number;
  private readonly kept = new Set<number>();
  constructor(known: CocoKnown) {
    this.first = this.next = known.maxAnnotationId + 1;
  }
  private used(id: number): boolean {
    return this.kept.has(id) || (id >= this.first && id < this.next && Number.isInteger(id));
  }
  of(
    coco: string | null | undefined,
    box: { xmin: number; ymin: number; width: number; height: number },
  ): { id: number; area?: unknown; segmentation?: unknown; extra: Record<string, unknown> } {
    if (coco === null || coco === undefined) return { id: this.fresh(), extra: NO_EXTRA };
    const kept = readKeptAnnotation(coco);
    const keptId = kept && typeof kept.id === 'number' && !this.used(kept.id) ? kept.id : null;
    if (keptId !== null) this.kept.add(keptId);
    const id = keptId ?? this.fresh();
    if (!kept) return { id, extra: NO_EXTRA };
    const [x, y, w, h] = kept.bbox as [number, number, number, number];
    // Exports round to 0.01 px: within that, the box is the one imported.
    const near = (a: number, b: number) => Math.abs(a - b) <= 0.011;
    const same =
      near(box.xmin, x) &&
      near(box.ymin, y) &&
      near(box.xmin + box.width, x + w) &&
      near(box.ymin + box.height, y + h);
    return same
      ? { id, area: kept.area, segmentation: kept.segmentation, extra: kept.extra }
      : { id, extra: kept.extra };
  }
  /** A new id, for a box that kept nothing from an import. */
  fresh(): number {
    while (this.kept.has(this.next)) this.next++;
    return this.next++;
  }
}
