/** What a COCO import keeps to write back (see core/import/coco-kept.ts), as stored. */

/** An annotation's kept fields, stored as JSON on its correction. */
export interface CocoKeptAnnotation {
  id?: unknown;
  /** The box as imported, in pixels [x, y, w, h]: area and segmentation hold while it is this. */
  bbox: number[];
  area?: unknown;
  segmentation?: unknown;
  /** Every other field but image_id, category_id, bbox, iscrowd and score. */
  extra: Record<string, unknown>;
}

export interface CocoKeptImage {
  /** The image's id as the file gives it (a number in COCO). */
  imageId: unknown;
  /** Every other field but id, file_name, width, height and absolute_path. */
  extra: Record<string, unknown>;
}

export interface CocoKeptCategory {
  label: string;
  id: number;
  /** Every other field but id and name (supercategory, keypoints, ...). */
  extra: Record<string, unknown>;
}

export interface CocoKeptDataset {
  info: unknown;
  licenses: unknown;
  categories: CocoKeptCategory[];
}
