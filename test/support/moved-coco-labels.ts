/** A library's own COCO export with every box moved 3 px: each label then edits a model box. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLASSES } from '../../bench/bench-library.js';
import { exportLibrary } from '../../electron/core/export/export-library.js';
import type { LibraryStore } from '../../electron/core/store/store-types.js';

/** Writes the labels into `dir` and returns their path. */
export async function movedCocoLabels(store: LibraryStore, dir: string): Promise<string> {
  const exported = join(dir, 'export.json');
  const items = store.exportItems({ solution: 'objects' });
  await exportLibrary({ items, format: 'coco', out: exported, classes: CLASSES });
  const text = await readFile(exported, 'utf8');
  const labels = join(dir, 'labels.json');
  const moved = (_m: string, x: string) => `"bbox":[${Number(x) + 3},`;
  await writeFile(labels, text.replace(/"bbox":\[([\d.]+),/g, moved));
  return labels;
}
