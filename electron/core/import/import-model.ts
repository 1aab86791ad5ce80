/**
 * What every label reader produces: files named as the labels name them, each with its boxes,
 * and per-file issues. Readers only read; matching files to the library and writing the labels
 * as a person's corrections happen after (match-files.ts, plan-import.ts).
 */
import type { Size } from '../export/box-geometry.js';
import type { CocoKeptDataset, CocoKeptImage } from './coco-kept.js';

export type ImportFormat = 'coco' | 'yolo' | 'voc' | 'csv';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['coco', 'yolo', 'voc', 'csv'];

/** One box, in pixels of the image as a viewer shows it, or normalised to it (YOLO). */
export interface ImportedBox {
  label: string;
  unit: 'px' | 'norm';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Clips (CSV): the clip's own 0-based frame and the time, when the labels give them. */
  frame: number | null;
  timeMs: number | null;
  /** A crowd region (COCO's `iscrowd: 1`); left out: an ordinary box. */
  crowd?: boolean;
  /** COCO: the annotation's JSON as the file gives it, for the fields LabelDesk does not edit. */
  coco?: string;
}

/** One labelled file as the source names it. */
export interface ImportedFile {
  /** Where in the source it was read, for messages ("coco.json image 12", "labels/a.txt"). */
  source: string;
  /** Absolute paths the source gives or implies, tried first, in order. */
  paths: string[];
  /**
   * Where the file is expected, as an absolute path without its extension (YOLO: the label's own
   * path with its last `labels` folder read as `images`, Ultralytics' rule); tried after `paths`.
   */
  pathStem?: string;
  /** The name relative to the dataset (COCO file_name, VOC filename): matched by file name. */
  name: string;
  /** The name has no extension (a YOLO label file's stem): matched by stem. */
  stemOnly: boolean;
  /** The size the labels declare, checked against the file; null when the format has none. */
  size: Size | null;
  boxes: ImportedBox[];
  /** COCO: the image's id and other fields, to write back. */
  coco?: CocoKeptImage;
}

export type ImportIssueCode =
  | 'unreadable_source'
  | 'malformed'
  | 'bad_box'
  | 'unknown_class'
  | 'unknown_file'
  | 'ambiguous_file'
  | 'size_mismatch'
  | 'not_analysed'
  | 'has_corrections'
  | 'duplicate_entry';

/** One problem with one file (or the source itself); the rest of the import goes on. */
export interface ImportIssue {
  /** Where in the source: a file of the source, or an entry inside it. */
  source: string;
  /** The library file concerned, once known. */
  path: string | null;
  code: ImportIssueCode;
  message: string;
}

export interface ReadLabels {
  files: ImportedFile[];
  issues: ImportIssue[];
  /** COCO: the dataset's info, licenses and category ids, to write back. */
  coco?: CocoKeptDataset;
}

export function issue(
  source: string,
  code: ImportIssueCode,
  message: string,
  path: string | null = null,
): ImportIssue {
  return { source, path, code, message };
}

/** A finite number from a JSON value or text; undefined otherwise (never a silent NaN). */
export function finite(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return typeof value === 'string' && value.trim() === ''
    ? undefined
    : Number.isFinite(n)
      ? n
      : undefined;
}

/** Why a box cannot be a label, or null when it can (corners in order, finite). */
export function boxProblem(b: Pick<ImportedBox, 'x0' | 'y0' | 'x1' | 'y1'>): string | null {
  // Four tests, not an array of them: asked of every box a source gives (a million in a COCO).
  const { x0, y0, x1, y1 } = b;
  if (!(Number.isFinite(x0) && Number.isFinite(y0) && Number.isFinite(x1) && Number.isFinite(y1)))
    return 'a coordinate is not a number';
  if (x1 <= x0 || y1 <= y0) return 'the box has no area';
  return null;
}
