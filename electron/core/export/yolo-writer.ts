/**
 * YOLO (Ultralytics layout): `labels/<stem>.txt` with `class cx cy w h` normalised to the
 * displayed image, `classes.txt`, `data.yaml`, and `sources.csv` mapping each label file back to
 * its image (names are sanitised and may carry a hash, so the stem alone is not always enough).
 * Labels sit in `labels/` so an image called `classes.jpg` cannot collide with `classes.txt`.
 * YOLO has no crowd regions: they are left out, as Ultralytics' own COCO converter leaves out
 * `iscrowd` annotations (a crowd box trained as an object teaches the model a wrong one).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaKind } from '../store/store-types.js';
import { toYoloBox } from './box-geometry.js';
import { ClassIndex, type FormatWriter, type PreparedItem } from './export-model.js';
import { insideDir, NameAllocator } from './safe-names.js';
import { csvRow, yamlQuoted } from './text-escape.js';
import { SmallFiles, TextSink } from './write-sinks.js';

export class YoloWriter implements FormatWriter {
  private readonly names = new NameAllocator();
  private readonly files = new SmallFiles();
  private readonly classes: ClassIndex;
  private readonly labelsDir: string;
  private readonly sources: TextSink;
  private readonly written: string[] = [];

  private constructor(
    private readonly dir: string,
    classes: readonly string[] | undefined,
  ) {
    this.classes = new ClassIndex(classes);
    this.labelsDir = join(dir, 'labels');
    this.sources = TextSink.create(join(dir, 'sources.csv'), csvRow(['label_file', 'path']));
  }

  static async open(dir: string, classes: readonly string[] | undefined): Promise<YoloWriter> {
    await mkdir(join(dir, 'labels'));
    return new YoloWriter(dir, classes);
  }

  accepts(kind: MediaKind): boolean {
    return kind === 'image';
  }

  async add({ media, detections }: PreparedItem): Promise<number> {
    const name = this.names.allocate(media.path, '.txt');
    let text = '';
    let boxes = 0;
    for (const d of detections) {
      if (d.crowd === true) continue;
      const b = toYoloBox(d.bbox);
      if (!b) continue;
      text += `${this.classes.idOf(d.label)} ${b.cx} ${b.cy} ${b.w} ${b.h}\n`;
      boxes++;
    }
    // An empty file is YOLO's way of saying "background image", so it is written too.
    await this.files.add(insideDir(this.labelsDir, name), text);
    await this.sources.write(csvRow([`labels/${name}`, media.path]));
    this.written.push(`labels/${name}`);
    return boxes;
  }

  async finish(): Promise<string[]> {
    await this.sources.close();
    // classes.txt is one name per line, so a line break inside a label cannot survive there;
    // data.yaml carries the exact names.
    const plain = this.classes.names.map((n) => n.replace(/[\r\n]+/g, ' '));
    await writeFile(join(this.dir, 'classes.txt'), plain.map((n) => `${n}\n`).join(''));
    const yaml = [
      '# LabelDesk export: labels only. Put the images in images/ with the stems in sources.csv.',
      'path: .',
      'train: images',
      'val: images',
      `nc: ${this.classes.names.length}`,
      this.classes.names.length ? 'names:' : 'names: {}',
      ...this.classes.names.map((n, i) => `  ${i}: ${yamlQuoted(n)}`),
      '',
    ].join('\n');
    await writeFile(join(this.dir, 'data.yaml'), yaml);
    return [...this.written, 'sources.csv', 'classes.txt', 'data.yaml'];
  }

  async abort(): Promise<void> {
    await this.sources.destroy();
  }
}
