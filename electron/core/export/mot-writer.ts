/**
 * MOTChallenge detections: one `<clip>.txt` per clip with
 * `frame,id,left,top,width,height,conf,-1,-1,-1`, frames from 1, pixels of the displayed clip,
 * lines in frame order (trackers read them sequentially). `sources.csv` maps files to clips.
 */
import { join } from 'node:path';
import type { MediaKind } from '../store/store-types.js';
import { roundTo, toPixelBox } from './box-geometry.js';
import { clipFrame, trackIdOf, type FormatWriter, type PreparedItem } from './export-model.js';
import { insideDir, NameAllocator } from './safe-names.js';
import { csvRow } from './text-escape.js';
import { SmallFiles, TextSink } from './write-sinks.js';

export class MotWriter implements FormatWriter {
  // sources.csv is reserved so a clip called `sources.mp4` gets a hashed name instead.
  private readonly names = new NameAllocator(['sources.csv']);
  private readonly files = new SmallFiles();
  private readonly sources: TextSink;
  private readonly written: string[] = [];

  constructor(private readonly dir: string) {
    this.sources = TextSink.create(
      join(dir, 'sources.csv'),
      csvRow(['file', 'path', 'width', 'height', 'fps']),
    );
  }

  accepts(kind: MediaKind): boolean {
    return kind === 'video';
  }

  async add({ media, size, detections }: PreparedItem): Promise<number> {
    const name = this.names.allocate(media.path, '.txt');
    const rows: { frame: number; line: string }[] = [];
    for (const d of detections) {
      const b = toPixelBox(d.bbox, size, 2);
      if (!b) continue;
      const frame = clipFrame(d, media.fps) + 1;
      const conf = roundTo(d.score, 4);
      rows.push({
        frame,
        line: `${frame},${trackIdOf(d)},${b.xmin},${b.ymin},${b.width},${b.height},${conf},-1,-1,-1\n`,
      });
    }
    // Stable sort: boxes of one frame keep the store's order.
    rows.sort((a, b) => a.frame - b.frame);
    await this.files.add(insideDir(this.dir, name), rows.map((r) => r.line).join(''));
    await this.sources.write(csvRow([name, media.path, size.width, size.height, media.fps]));
    this.written.push(name);
    return rows.length;
  }

  async finish(): Promise<string[]> {
    await this.sources.close();
    return [...this.written, 'sources.csv'];
  }

  async abort(): Promise<void> {
    await this.sources.destroy();
  }
}
