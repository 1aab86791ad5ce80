/**
 * The export formats and the check of an export target, apart from the writers: a labelling run
 * checks its `--export` target before it spends anything without loading the export code.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ExportFormat } from './export-model.js';

export const EXPORT_FORMATS: readonly ExportFormat[] = [
  'coco',
  'coco-results',
  'yolo',
  'voc',
  'csv',
  'mot',
  'events',
];
/** Written into every folder export, so that `replace` can tell an old export from other files. */
export const EXPORT_MARKER = '.labeldesk-export.json';

/** The target cannot be written as asked; `code` says why. A usage problem, not a failure. */
export class ExportTargetError extends Error {
  override readonly name = 'ExportTargetError';
  constructor(
    readonly code: 'target_exists' | 'target_not_an_export' | 'target_kind',
    message: string,
  ) {
    super(message);
  }
}
export const FOLDER_FORMATS: ReadonlySet<ExportFormat> = new Set(['yolo', 'voc', 'mot']);

/**
 * Refuses a target that exists (a file, or a non-empty folder) unless `replace` is set, and even
 * then a folder that is not a previous LabelDesk export. Exported so a run can check before it
 * spends anything.
 */
export async function checkExportTarget(
  target: string,
  format: ExportFormat,
  replace: boolean,
): Promise<void> {
  const out = resolve(target);
  const folder = FOLDER_FORMATS.has(format);
  const info = await stat(out).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!info) return;
  if (!folder && info.isDirectory()) {
    throw new ExportTargetError('target_kind', `export target is a folder: ${out}`);
  }
  if (folder && !info.isDirectory()) {
    throw new ExportTargetError('target_kind', `export target is not a folder: ${out}`);
  }
  if (folder && (await readdir(out)).length === 0) return;
  if (!replace) {
    throw new ExportTargetError(
      'target_exists',
      folder
        ? `export folder is not empty: ${out} (choose a new folder, or --force to replace a previous export)`
        : `export file already exists: ${out} (choose another name, or --force to replace it)`,
    );
  }
  if (folder && !(await isExportFolder(out))) {
    throw new ExportTargetError(
      'target_not_an_export',
      `export folder is not empty and holds no LabelDesk export, so it is not replaced: ${out}`,
    );
  }
}

export async function isExportFolder(dir: string): Promise<boolean> {
  const text = await readFile(join(dir, EXPORT_MARKER), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  try {
    const { format } = JSON.parse(text) as { format?: unknown };
    return EXPORT_FORMATS.some((f) => f === format);
  } catch {
    return false;
  }
}
