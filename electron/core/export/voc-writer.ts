/**
 * Pascal VOC: one XML file per image, integer pixel corners of the displayed image, counted from 1
 * as the VOC devkit counts them (its box covers xmin − 1 … xmax in pixel edges). Exports before
 * this wrote edges from 0 under the database name "LabelDesk"; the reader still reads those so.
 * VOC has no crowd regions; its `difficult` objects are what the devkit's evaluation ignores (no
 * object to find, a detection on one neither right nor wrong), so a crowd region is written as a
 * difficult object and read back as a crowd region.
 */
import type { MediaKind } from '../store/store-types.js';
import { toPixelBox } from './box-geometry.js';
import type { FormatWriter, PreparedItem } from './export-model.js';
import { baseName, insideDir, NameAllocator } from './safe-names.js';
import { xmlText } from './text-escape.js';
import { SmallFiles } from './write-sinks.js';

/** The source database our exports name: not "LabelDesk", which marks the older 0-based ones. */
export const VOC_DATABASE = 'LabelDesk (VOC devkit pixels, from 1)';

export class VocWriter implements FormatWriter {
  private readonly names = new NameAllocator();
  private readonly files = new SmallFiles();
  private readonly written: string[] = [];

  constructor(private readonly dir: string) {}

  accepts(kind: MediaKind): boolean {
    return kind === 'image';
  }

  async add({ media, size, detections }: PreparedItem): Promise<number> {
    const name = this.names.allocate(media.path, '.xml');
    const file = baseName(media.path);
    const folder = media.path.slice(0, Math.max(0, media.path.length - file.length - 1));
    const objects: string[] = [];
    for (const d of detections) {
      // VOC readers parse the corners with int(), so they are whole pixels here; from 1, as the devkit.
      const b = toPixelBox(d.bbox, size, 0);
      if (!b) continue;
      objects.push(
        [
          '  <object>',
          `    <name>${xmlText(d.label)}</name>`,
          '    <pose>Unspecified</pose>',
          '    <truncated>0</truncated>',
          `    <difficult>${d.crowd === true ? 1 : 0}</difficult>`,
          // A person's box has no score: the element is empty.
          `    <score>${d.score === null ? '' : Math.round(d.score * 1e4) / 1e4}</score>`,
          `    <bndbox><xmin>${b.xmin + 1}</xmin><ymin>${b.ymin + 1}</ymin><xmax>${b.xmax}</xmax><ymax>${b.ymax}</ymax></bndbox>`,
          '  </object>',
        ].join('\n'),
      );
    }
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<annotation>',
      `  <folder>${xmlText(baseName(folder))}</folder>`,
      `  <filename>${xmlText(file)}</filename>`,
      `  <path>${xmlText(media.path)}</path>`,
      `  <source><database>${VOC_DATABASE}</database></source>`,
      `  <size><width>${size.width}</width><height>${size.height}</height><depth>3</depth></size>`,
      '  <segmented>0</segmented>',
      ...objects,
      '</annotation>',
      '',
    ].join('\n');
    await this.files.add(insideDir(this.dir, name), xml);
    this.written.push(name);
    return objects.length;
  }

  async finish(): Promise<string[]> {
    return this.written;
  }

  async abort(): Promise<void> {
    // Nothing stays open between files; the caller removes the temp folder.
  }
}
