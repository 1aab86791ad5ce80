/**
 * What a COCO import kept of its ids and of the fields LabelDesk does not edit (see
 * core/import/coco-kept.ts), for a COCO export to give back: the image id and fields per library
 * file, and per solution the dataset's info, licenses and category ids.
 */
import type { Db } from '../../node-lib/sqlite.js';
import type { CocoKeptCategory, CocoKeptDataset, CocoKeptImage } from './coco-kept-types.js';

export interface CocoIds {
  /** Stores (replaces) the kept image ids and fields of library files. */
  setImages(rows: readonly { mediaId: number; image: CocoKeptImage }[]): void;
  /** Stores the dataset's info and licenses and adds or replaces its categories' ids. */
  setDataset(solution: string, dataset: CocoKeptDataset): void;
  /** Every library file's kept image, by media id. */
  images(): Map<number, CocoKeptImage>;
  /** The kept dataset of a solution (categories: [] and info/licenses null when none). */
  dataset(solution: string): CocoKeptDataset;
  /** The largest annotation id a COCO import kept for a solution (0: none). */
  maxAnnotationId(solution: string): number;
}

const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

export function cocoIdsRepo(db: Db): CocoIds {
  const setImage = db.prepare<[number, string, string]>(
    `INSERT INTO coco_images (media_id, image_id, extra) VALUES (?, ?, ?)
     ON CONFLICT (media_id) DO UPDATE SET image_id = excluded.image_id, extra = excluded.extra`,
  );
  const setCategory = db.prepare<[string, string, number, string]>(
    `INSERT INTO coco_categories (solution, label, category_id, extra) VALUES (?, ?, ?, ?)
     ON CONFLICT (solution, label) DO UPDATE SET category_id = excluded.category_id,
       extra = excluded.extra`,
  );
  const setDataset = db.prepare<[string, string, string]>(
    `INSERT INTO coco_datasets (solution, info, licenses) VALUES (?, ?, ?)
     ON CONFLICT (solution) DO UPDATE SET info = excluded.info, licenses = excluded.licenses`,
  );
  const images = db.prepare<[], { media_id: number; image_id: string; extra: string }>(
    'SELECT media_id, image_id, extra FROM coco_images',
  );
  const categories = db.prepare<[string], { label: string; category_id: number; extra: string }>(
    'SELECT label, category_id, extra FROM coco_categories WHERE solution = ? ORDER BY category_id',
  );
  const dataset = db.prepare<[string], { info: string | null; licenses: string | null }>(
    'SELECT info, licenses FROM coco_datasets WHERE solution = ?',
  );
  const maxAnnotation = db.prepare<[string], { id: number | null }>(
    `SELECT max(CAST(json_extract(coco, '$.id') AS INTEGER)) AS id FROM corrections
     WHERE solution = ? AND coco IS NOT NULL`,
  );
  return {
    setImages: db.transaction((rows: readonly { mediaId: number; image: CocoKeptImage }[]) => {
      for (const r of rows) {
        setImage.run(r.mediaId, JSON.stringify(r.image.imageId), JSON.stringify(r.image.extra));
      }
    }),
    setDataset: db.transaction((solution: string, d: CocoKeptDataset) => {
      setDataset.run(solution, JSON.stringify(d.info ?? null), JSON.stringify(d.licenses ?? null));
      for (const c of d.categories) {
        setCategory.run(solution, c.label, c.id, JSON.stringify(c.extra));
      }
    }),
    images: () =>
      new Map(
        images
          .all()
          .map((r) => [
            r.media_id,
            { imageId: parse(r.image_id), extra: parse(r.extra) as Record<string, unknown> },
          ]),
      ),
    dataset: (solution) => {
      const d = dataset.get(solution);
      const cats = categories.all(solution).map((c): CocoKeptCategory => ({
        label: c.label,
        id: c.category_id,
        extra: parse(c.extra) as Record<string, unknown>,
      }));
      return {
        info: parse(d?.info ?? null),
        licenses: parse(d?.licenses ?? null),
        categories: cats,
      };
    },
    maxAnnotationId: (solution) => maxAnnotation.get(solution)?.id ?? 0,
  };
}
