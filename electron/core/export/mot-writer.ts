/**
 * MOTChallenge: one `<clip>.txt` per clip with `frame,id,left,top,width,height,conf,class,-1,-1`,
 * frames from 1, pixels of the displayed clip, lines in frame order (trackers read them
 * sequentially). `id` is the box's track (stable across the clip's sampled frames; a box in no
 * track is a track of its own, numbered after the clip's tracks: MOT ids are 1 or more), `class` its
 * class id as in MOTChallenge's ground truth (8th column), named in `classes.txt` (one per line,
 * id = line number from 0), so classes never mix in one file. `sources.csv` maps files to clips.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaKind } from '../store/store-types.js';
import { roundTo, toPixelBox } from './box-geometry.js';
import {
  ClassIndex,
  clipFrame,
  inFrameOrder,
  isStream,
  largestTrackId,
  trackIdOf,
  type FormatWriter,
  type PreparedItem,
} from './export-model.js';
import { insideDir, NameAllocator } from './safe-names.js';
import { csvRow } from './text-escape.js';
import { GrowingFile, SmallFiles, TextSink } from './write-sinks.js';

export class MotWriter implements FormatWriter {
  // sources.csv is reserved so a clip called `sources.mp4` gets a hashed name instead.
  private readonly names = new NameAllocator(['sources.csv', 'classes.txt']);
  private readonly files = new SmallFiles();
  private readonly sources: TextSink;
  private readonly written: string[] = [];
  private readonly classes: ClassIndex;
  /** The clip file being written, closed by `abort` after a failure. */
  private open: GrowingFile | undefined;

  constructor(
    private readonly dir: string,
    classes?: readonly string[],
  ) {
    this.classes = new ClassIndex(classes);
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
    // Lines in frame order (boxes of one frame in the store's order), streamed to the file.
    const file = new GrowingFile(insideDir(this.dir, name), this.files);
    this.open = file;
    let lines = 0;
    // Class ids are numbered as first seen in the order boxes come (the store's for a list).
    if (!isStream(detections)) {
      for (const d of detections) if (toPixelBox(d.bbox, size, 2)) this.classes.idOf(d.label);
    }
    let unplaced = largestTrackId(detections);
    for (const d of inFrameOrder(detections, media.fps)) {
      const b = toPixelBox(d.bbox, size, 2);
      if (!b) continue;
      const track = trackIdOf(d);
      const frame = clipFrame(d, media.fps) + 1;
      // A person's box has no score: MOT's ground-truth flag 1 (considered).
      const conf = d.score === null ? 1 : roundTo(d.score, 4);
      await file.write(
        `${frame},${track >= 1 ? track : ++unplaced},${b.xmin},${b.ymin},${b.width},${b.height},${conf},${this.classes.idOf(d.label)},-1,-1\n`,
      );
      lines++;
    }
    await file.close();
    this.open = undefined;
    await this.sources.write(csvRow([name, media.path, size.width, size.height, media.fps]));
    this.written.push(name);
    return lines;
  }

  async finish(): Promise<string[]> {
    await this.sources.close();
    const names = this.classes.names.map((n) => `${n.replace(/[\r\n]+/g, ' ')}\n`).join('');
    await writeFile(join(this.dir, 'classes.txt'), names);
    return [...this.written, 'sources.csv', 'classes.txt'];
  }

  async abort(): Promise<void> {
    await this.open?.destroy();
    await this.sources.destroy();
  }
}
