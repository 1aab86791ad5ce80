/**
 * COCO's *results* format (`[{image_id, category_id, bbox, score}]`), the file pycocotools'
 * `loadRes`, FiftyOne and other COCO tools score against a ground truth: the model's own boxes
 * (as the service gave them, not a person's corrections: a deleted false positive still counts),
 * keyed to the image and category ids a COCO import kept, so they match the person's own ground
 * truth. A box the service gave no score is written with score 0 (ranked last), as COCO needs one.
 */
import { roundTo, toPixelBox } from './box-geometry.js';
import { CocoCategoryIds, CocoImageIds, NO_COCO_KNOWN, type CocoKnown } from './coco-known.js';
import type { FormatWriter, PreparedItem } from './export-model.js';
import { TextSink } from './write-sinks.js';
import type { DetectionRow, MediaKind } from '../store/store-types.js';

export class CocoResultsWriter implements FormatWriter {
  private readonly out: TextSink;
  private readonly imageIds: CocoImageIds;
  private readonly categoryIds: CocoCategoryIds;
  private written = 0;

  constructor(
    file: string,
    classes: readonly string[] | undefined,
    private readonly modelBoxes: (item: PreparedItem) => readonly DetectionRow[],
    private readonly minScore: number | undefined,
    known: CocoKnown = NO_COCO_KNOWN,
  ) {
    this.out = TextSink.create(file, '[');
    this.imageIds = new CocoImageIds(known);
    this.categoryIds = new CocoCategoryIds(known);
    for (const name of classes ?? []) this.categoryIds.idOf(name);
  }

  accepts(kind: MediaKind): boolean {
    return kind === 'image';
  }

  async add(item: PreparedItem): Promise<number> {
    const imageId = JSON.stringify(this.imageIds.of(item.media.id).id);
    let boxes = 0;
    for (const d of this.modelBoxes(item)) {
      if (d.score !== null && this.minScore !== undefined && d.score < this.minScore) continue;
      const box = toPixelBox(d.bbox, item.size, 2);
      if (!box) continue;
      const score = d.score === null || !Number.isFinite(d.score) ? 0 : roundTo(d.score, 4);
      await this.out.write(
        `${++this.written === 1 ? '' : ','}\n{"image_id":${imageId},` +
          `"category_id":${this.categoryIds.idOf(d.label)},` +
          `"bbox":[${box.xmin},${box.ymin},${box.width},${box.height}],"score":${score}}`,
      );
      boxes++;
    }
    return boxes;
  }

  async finish(): Promise<string[]> {
    await this.out.write('\n]\n');
    await this.out.close();
    return [];
  }

  async abort(): Promise<void> {
    await this.out.destroy();
  }
}
