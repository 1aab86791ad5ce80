/**
 * What the label-reading thread sends (read-labels-worker.ts): the files read a batch at a time,
 * each batch's files as JSON text and their boxes packed (see read-labels-messages.ts).
 */
import type { HeldFile } from './held-file.js';
import type { ImportedBox, ReadLabels } from './import-model.js';
import { packBoxes, type PackedBoxes } from './packed-boxes.js';

export interface LabelBatches extends Omit<ReadLabels, 'files'> {
  /** How many files were read. */
  count: number;
  /** Files `from` to `to` (exclusive): each without its boxes but their count, and the boxes. */
  batch(from: number, to: number): { json: string; boxes: PackedBoxes };
}

/** Files read with their boxes as objects, batched. */
export function batchesOf(read: ReadLabels): LabelBatches {
  const { files, ...rest } = read;
  return {
    ...rest,
    count: files.length,
    batch(from, to) {
      const some = files.slice(from, to);
      const boxes: ImportedBox[] = [];
      for (const f of some) for (const b of f.boxes) boxes.push(b);
      const held = some.map(({ boxes: b, ...file }): Omit<HeldFile, 'packed' | 'firstBox'> => ({
        ...file,
        boxCount: b.length,
      }));
      return { json: JSON.stringify(held), boxes: packBoxes(boxes) };
    },
  };
}
