/**
 * What importing one file's labels writes. The labels become the file's corrected set as a
 * person's accepted work: a model box the labels repeat exactly is accepted, every other model box
 * is deleted (a correction: the model's output itself stays stored, for evaluation), and the rest
 * of the labels are drawn boxes, accepted. Pure: reads the file's state, returns the corrections.
 *
 * A file's existing corrections are replaced only when a previous import wrote them and nobody
 * touched them since; a person's work is never overwritten (the file is listed instead). Writing
 * nothing is "unchanged": importing the same labels twice adds nothing.
 */
import { mediaDisplayedSize, swapsAxes, type Size } from '../export/box-geometry.js';
import { mergeCorrections, type MergedBox } from '../review/merge-corrections.js';
import type {
  BoxXYWH,
  CorrectionInput,
  CorrectionRow,
  DetectionRow,
  MediaRecord,
  ResultRow,
} from '../store/store-types.js';
import { issue, type ImportedBox, type ImportedFile, type ImportIssue } from './import-model.js';

export interface FileState {
  media: MediaRecord;
  result: ResultRow;
  model: readonly DetectionRow[];
  corrections: readonly CorrectionRow[];
  /** The corrections are a previous import's, untouched since: they may be replaced. */
  importedBefore: boolean;
}

export type ImportPlan =
  | { kind: 'write'; corrections: CorrectionInput[]; boxes: number }
  | { kind: 'unchanged'; boxes: number }
  | ImportIssue;

/** Corners closer than this (pixels of the displayed image) are the same box: exports round to 0.01. */
const SAME_PX = 0.011;

interface Target {
  label: string;
  frameIndex: number;
  timeMs: number | null;
  bbox: BoxXYWH;
}

export function planImport(file: ImportedFile, state: FileState, solution: string): ImportPlan {
  const { media, result } = state;
  const size = mediaDisplayedSize(media, result);
  if (!size)
    return issue(
      file.source,
      'size_mismatch',
      `${media.path}: its size is not known yet.`,
      media.path,
    );
  const mismatch = sizeProblem(file, media, size);
  if (mismatch) return issue(file.source, 'size_mismatch', mismatch, media.path);
  const targets: Target[] = [];
  for (const b of file.boxes) {
    const t = toTarget(b, size, media, state.model);
    if (typeof t === 'string')
      return issue(
        file.source,
        'bad_box',
        `${media.path}: ${t}; its labels were not imported.`,
        media.path,
      );
    targets.push(t);
  }
  const writes = diff(targets, state, size, solution);
  if (writes.length === 0) return { kind: 'unchanged', boxes: targets.length };
  if (state.corrections.length > 0 && !state.importedBefore) {
    const what = `${media.path} already has a person's corrections; they are kept and its imported labels were not applied.`;
    return issue(file.source, 'has_corrections', what, media.path);
  }
  return { kind: 'write', corrections: writes, boxes: targets.length };
}

function sizeProblem(file: ImportedFile, media: MediaRecord, size: Size): string | null {
  const d = file.size;
  if (!d || (d.width === size.width && d.height === size.height)) return null;
  const turned =
    swapsAxes(media.orientation) && d.width === size.height && d.height === size.width
      ? ` (EXIF orientation ${media.orientation} turns the stored ${d.width}×${d.height} pixels; the labels were made on them unturned)`
      : '';
  return `${media.path}: the labels say ${d.width}×${d.height} but the file shows ${size.width}×${size.height}${turned}; its labels were not imported.`;
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

function toTarget(
  b: ImportedBox,
  size: Size,
  media: MediaRecord,
  model: readonly DetectionRow[],
): Target | string {
  const sx = b.unit === 'px' ? size.width : 1;
  const sy = b.unit === 'px' ? size.height : 1;
  const x0 = clamp01(b.x0 / sx);
  const y0 = clamp01(b.y0 / sy);
  const x1 = clamp01(b.x1 / sx);
  const y1 = clamp01(b.y1 / sy);
  if (x1 <= x0 || y1 <= y0) return `a ${b.label} box lies outside the image`;
  const bbox = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  if (media.kind !== 'video') return { label: b.label, frameIndex: 0, timeMs: null, bbox };
  const fps = media.fps ?? 0;
  const timeMs = b.timeMs ?? (b.frame !== null && fps > 0 ? (b.frame * 1000) / fps : null);
  if (timeMs === null) return `a ${b.label} box of the clip has no frame or time`;
  return { label: b.label, frameIndex: sampleIndex(timeMs, b.frame, model), timeMs, bbox };
}

/**
 * The service's sample index at a time: the model's frame at that time, else the one the samples'
 * even spacing puts there, else (no two frames known) the clip's own frame number.
 */
function sampleIndex(timeMs: number, frame: number | null, model: readonly DetectionRow[]): number {
  let first: DetectionRow | undefined;
  let last: DetectionRow | undefined;
  for (const d of model) {
    if (d.timeMs === null) continue;
    if (Math.abs(d.timeMs - timeMs) < 0.5) return d.frameIndex;
    if (!first || d.frameIndex < first.frameIndex) first = d;
    if (!last || d.frameIndex > last.frameIndex) last = d;
  }
  if (first && last && last.frameIndex > first.frameIndex) {
    const period =
      ((last.timeMs as number) - (first.timeMs as number)) / (last.frameIndex - first.frameIndex);
    if (period > 0)
      return Math.max(
        0,
        first.frameIndex + Math.round((timeMs - (first.timeMs as number)) / period),
      );
  }
  return Math.max(0, Math.round(frame ?? 0));
}

function sameTarget(
  t: Target,
  frameIndex: number,
  label: string,
  bbox: BoxXYWH,
  size: Size,
): boolean {
  if (t.frameIndex !== frameIndex || t.label !== label) return false;
  const near = (a: number, b: number, s: number) => Math.abs(a - b) * s <= SAME_PX;
  return (
    near(t.bbox.x, bbox.x, size.width) &&
    near(t.bbox.y, bbox.y, size.height) &&
    near(t.bbox.x + t.bbox.w, bbox.x + bbox.w, size.width) &&
    near(t.bbox.y + t.bbox.h, bbox.y + bbox.h, size.height)
  );
}

/** The corrections that make the file's corrected set exactly `targets` (none when it already is). */
function diff(
  targets: Target[],
  state: FileState,
  size: Size,
  solution: string,
): CorrectionInput[] {
  const content = { contentHash: state.result.contentHash, solution };
  const boxes = mergeCorrections(state.model, state.corrections, { includeDeleted: true });
  const left = new Set(targets);
  const take = (frameIndex: number, label: string, bbox: BoxXYWH): Target | undefined => {
    for (const t of left) {
      if (sameTarget(t, frameIndex, label, bbox, size)) {
        left.delete(t);
        return t;
      }
    }
    return undefined;
  };
  const writes: CorrectionInput[] = [];
  const put = (b: MergedBox, keep: boolean) => {
    const unchanged = keep
      ? !b.deleted && b.review === 'accepted' && (b.detectionId === null || b.origin === 'model')
      : b.deleted;
    if (unchanged) return;
    const row =
      b.correctionId === null ? undefined : state.corrections.find((c) => c.id === b.correctionId);
    writes.push({
      ...content,
      ...(row ? { id: row.id } : {}),
      frameIndex: b.frameIndex,
      timeMs: b.timeMs,
      anchor: row ? row.anchor : b.model,
      label: b.detectionId === null ? (row?.label ?? b.label) : null,
      bbox: b.detectionId === null ? (row?.bbox ?? b.bbox) : null,
      review: keep ? 'accepted' : b.review,
      deleted: !keep,
    });
  };
  // Model boxes first: one the labels repeat exactly is accepted as the model gave it.
  for (const b of boxes) {
    if (b.detectionId === null || !b.model) continue;
    put(b, take(b.frameIndex, b.model.label, b.model.bbox) !== undefined);
  }
  // Boxes standing on corrections alone (a previous import's): kept when the labels have them.
  for (const b of boxes) {
    if (b.detectionId !== null || b.deleted) continue;
    put(b, take(b.frameIndex, b.label, b.bbox) !== undefined);
  }
  for (const t of left) {
    writes.push({
      ...content,
      frameIndex: t.frameIndex,
      timeMs: t.timeMs,
      anchor: null,
      label: t.label,
      bbox: t.bbox,
      review: 'accepted',
      deleted: false,
    });
  }
  return writes;
}
