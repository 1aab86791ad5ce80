/**
 * CSV (RFC 4180, CRLF): one row per box; clips give their frame and time, images leave them empty.
 * `iscrowd` is 1 for a crowd region (COCO's flag, read back by the import), else 0.
 */
import type { MediaKind } from '../store/store-types.js';
import { roundTo, toPixelBox } from './box-geometry.js';
import { clipFrame, type PreparedItem } from './export-model.js';
import { CsvFileWriter } from './csv-file-writer.js';
import { csvField } from './text-escape.js';

export const CSV_HEADER = [
  'path',
  'width',
  'height',
  'label',
  'score',
  'xmin',
  'ymin',
  'xmax',
  'ymax',
  'frame',
  'timeMs',
  'iscrowd',
] as const;

export class CsvWriter extends CsvFileWriter {
  /** Labels as CSV fields, escaped once each: an interpolated clip repeats a few over millions of rows. */
  private readonly labels = new Map<string, string>();

  constructor(file: string) {
    super(file, CSV_HEADER);
  }

  accepts(_kind: MediaKind): boolean {
    return true;
  }

  async add({ media, size, detections }: PreparedItem): Promise<number> {
    const clip = media.kind === 'video';
    // The row is built as text: only the path and the label can need quoting (numbers never
    // do), so they are escaped once per file and label rather than 11 fields on every row.
    const prefix = `${csvField(media.path)},${size.width},${size.height},`;
    let boxes = 0;
    for (const d of detections) {
      const b = toPixelBox(d.bbox, size, 2);
      if (!b) continue;
      const when = clip ? `${clipFrame(d, media.fps)},${d.timeMs ?? ''}` : ',';
      const crowd = d.crowd === true ? 1 : 0;
      await this.sink.write(
        `${prefix}${this.labelField(d.label)},${d.score === null ? '' : roundTo(d.score, 4)},${b.xmin},${b.ymin},${b.xmax},${b.ymax},${when},${crowd}\r\n`,
      );
      boxes++;
    }
    return boxes;
  }

  private labelField(label: string): string {
    let field = this.labels.get(label);
    if (field === undefined) this.labels.set(label, (field = csvField(label)));
    return field;
  }
}
