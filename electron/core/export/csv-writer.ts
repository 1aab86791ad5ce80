/** CSV (RFC 4180, CRLF): one row per box; clips give their frame and time, images leave them empty. */
import type { MediaKind } from '../store/store-types.js';
import { roundTo, toPixelBox } from './box-geometry.js';
import { clipFrame, type PreparedItem } from './export-model.js';
import { CsvFileWriter } from './csv-file-writer.js';
import { csvRow } from './text-escape.js';

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
] as const;

export class CsvWriter extends CsvFileWriter {
  constructor(file: string) {
    super(file, CSV_HEADER);
  }

  accepts(_kind: MediaKind): boolean {
    return true;
  }

  async add({ media, size, detections }: PreparedItem): Promise<number> {
    const clip = media.kind === 'video';
    let boxes = 0;
    for (const d of detections) {
      const b = toPixelBox(d.bbox, size, 2);
      if (!b) continue;
      await this.sink.write(
        csvRow([
          media.path,
          size.width,
          size.height,
          d.label,
          roundTo(d.score, 4),
          b.xmin,
          b.ymin,
          b.xmax,
          b.ymax,
          clip ? clipFrame(d, media.fps) : null,
          clip ? d.timeMs : null,
        ]),
      );
      boxes++;
    }
    return boxes;
  }
}
