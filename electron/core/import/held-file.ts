/** A file read by the label-reading thread, as the import holds it until its turn. */
import type { ImportedFile } from './import-model.js';
import { unpackBoxes, type PackedBoxes } from './packed-boxes.js';

/**
 * A file read, its boxes kept packed until it is planned: a 100k-file COCO holds a million boxes
 * until each is written, and held as objects they all survived into the old generation (seconds
 * of the collector's work, pauses of 40-84 ms on the thread serving the UI).
 */
export interface HeldFile extends Omit<ImportedFile, 'boxes'> {
  boxCount: number;
  /** The run its boxes are in (shared with the files read with it), from `firstBox` on. */
  packed: PackedBoxes;
  firstBox: number;
}

export function withBoxes(held: HeldFile): ImportedFile {
  const { boxCount, packed, firstBox, ...file } = held;
  return { ...file, boxes: unpackBoxes(packed, firstBox, boxCount) };
}
