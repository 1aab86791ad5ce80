/**
 * COCO detection JSON, streamed in one pass: images go straight to the output while annotations
 * go to a side file that is appended at the end, because the item source (a database cursor)
 * can only be read once and COCO wants the two arrays apart. Categories come last, when the
 * labels seen are known. One entry per line keeps the file diffable and greppable.
 *
 * `file_name` is relative to the image root (recorded as `info.image_root`), with `/` separators,
 * as COCO tools expect (they join it to an images folder); `absolute_path` keeps the full path.
 * Files, classes and boxes that came from a COCO import keep their ids and the fields LabelDesk
 * does not edit (coco-known.ts), with the dataset's info and licenses.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { DetectionRow, MediaKind } from '../store/store-types.js';
import { roundTo, toPixelBox, type PixelBox } from './box-geometry.js';
import {
  CocoAnnotationIds,
  CocoCategoryIds,
  CocoImageIds,
  NO_COCO_KNOWN,
  type CocoKnown,
} from './coco-known.js';
import type { FormatWriter, PreparedItem } from './export-model.js';
import { TextSink } from './write-sinks.js';

export class CocoWriter implements FormatWriter {
  private readonly sideFile: string;
  private readonly main: TextSink;
  private readonly side: TextSink;
  private readonly imageIds: CocoImageIds;
  private readonly categoryIds: CocoCategoryIds;
  private readonly annotationIds: CocoAnnotationIds;
  private images = 0;
  private annotations = 0;

  constructor(
    file: string,
    classes: readonly string[] | undefined,
    private readonly imageRoot: string,
    known: CocoKnown = NO_COCO_KNOWN,
  ) {
    this.sideFile = `${file}.annotations`;
    const kept = known.dataset.info;
    const info = {
      ...(kept && typeof kept === 'object'
        ? kept
        : { description: 'LabelDesk export', version: '1.0' }),
      date_created: new Date().toISOString(),
      image_root: imageRoot,
    };
    const licenses = Array.isArray(known.dataset.licenses) ? known.dataset.licenses : [];
    this.main = TextSink.create(
      file,
      `{"info":${JSON.stringify(info)},\n"licenses":${JSON.stringify(licenses)},\n"images":[`,
    );
    this.side = TextSink.create(this.sideFile);
    this.imageIds = new CocoImageIds(known);
    this.categoryIds = new CocoCategoryIds(known);
    // The catalog's classes after the kept ones: ids follow the catalog when none is kept.
    for (const name of classes ?? []) this.categoryIds.idOf(name);
    this.annotationIds = new CocoAnnotationIds(known);
  }

  accepts(kind: MediaKind): boolean {
    return kind === 'image';
  }

  async add({ media, size, detections }: PreparedItem): Promise<number> {
    const { id, extra } = this.imageIds.of(media.id);
    const image = {
      id,
      file_name: path.relative(this.imageRoot, media.path).split(path.sep).join('/'),
      width: size.width,
      height: size.height,
      ...extra,
      absolute_path: media.path,
    };
    await this.main.write(`${++this.images === 1 ? '' : ','}\n${JSON.stringify(image)}`);
    const imageId = JSON.stringify(id);
    // One write per image rather than per box: each write is a push and a size check.
    let text = '';
    let boxes = 0;
    for (const d of detections) {
      const box = toPixelBox(d.bbox, size, 2);
      if (!box) continue;
      text += this.annotation(d, box, imageId);
      boxes++;
    }
    if (text) {
      // Awaited only when the sink waits for the disk: an await per image costs a turn of the
      // microtask queue each.
      const wait = this.side.write(text);
      if (wait) await wait;
    }
    return boxes;
  }

  /**
   * One annotation line. Only finite numbers here (toPixelBox drops the rest), so a template is
   * valid JSON and about twice as fast as JSON.stringify over a million annotations. A box that
   * kept nothing from an import (nearly all of them) takes a fresh id without the kept-fields
   * lookup and its object.
   */
  private annotation(d: DetectionRow, box: PixelBox, imageId: string): string {
    const category = this.categoryIds.idOf(d.label);
    const score = d.score === null ? '' : `,"score":${jsonNumber(roundTo(d.score, 4))}`;
    let id: number;
    let area: string;
    let more = '';
    if (d.coco === null || d.coco === undefined) {
      id = this.annotationIds.fresh();
      area = jsonNumber(roundTo(box.width * box.height, 2));
    } else {
      const kept = this.annotationIds.of(d.coco, box);
      id = kept.id;
      area = JSON.stringify(kept.area ?? roundTo(box.width * box.height, 2));
      if (kept.segmentation !== undefined || Object.keys(kept.extra).length > 0)
        more = `,${JSON.stringify({ ...kept.extra, segmentation: kept.segmentation }).slice(1, -1)}`;
    }
    return (
      `${++this.annotations === 1 ? '' : ','}\n{"id":${id},"image_id":${imageId},` +
      `"category_id":${category},"bbox":[${box.xmin},${box.ymin},${box.width},${box.height}],` +
      `"area":${area},"iscrowd":${d.crowd === true ? 1 : 0}${score}${more}}`
    );
  }

  async finish(): Promise<string[]> {
    await this.side.close();
    await this.main.write('\n],\n"annotations":[');
    const reader = createReadStream(this.sideFile, { highWaterMark: 1 << 20 });
    for await (const chunk of reader) await this.main.writeBytes(chunk as Buffer);
    const categories = this.categoryIds.list();
    const lines = categories.map((c) => JSON.stringify(c)).join(',\n');
    await this.main.write(`\n],\n"categories":[${lines ? `\n${lines}` : ''}\n]}\n`);
    await this.main.close();
    await rm(this.sideFile, { force: true });
    return [];
  }

  async abort(): Promise<void> {
    await Promise.all([this.main.destroy(), this.side.destroy()]);
    await rm(this.sideFile, { force: true });
  }
}

/** Scores come from the store and could in theory be NaN; JSON has no such number. */
function jsonNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}
