/**
 * What importing one file's labels writes: the labels become the file's corrected set as a
 * person's accepted work (how, in import-diff.ts; the model's own boxes stay stored as its output,
 * for evaluation). Sizes are checked and clips' boxes put on the model's sampled frames here.
 * Pure: reads the file's state, returns the corrections.
 *
 * A file's existing corrections are replaced only when a previous import wrote them and nobody
 * touched them since; a person's work is never overwritten (the file is listed instead). Writing
 * nothing is "unchanged": importing the same labels twice adds nothing.
 */
import { mediaDisplayedSize, swapsAxes, type Size } from '../export/box-geometry.js';
import type {
  CorrectionInput,
  CorrectionRow,
  DetectionRow,
  MediaRecord,
  ResultRow,
} from '../store/store-types.js';
import { importDiff, type Target } from './import-diff.js';
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
  const content = { contentHash: result.contentHash, solution };
  const replaceable = state.corrections.length === 0 || state.importedBefore;
  const writes = importDiff(targets, state.model, state.corrections, content, size, replaceable);
  if (writes.length === 0) return { kind: 'unchanged', boxes: targets.length };
  if (!replaceable) {
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
  if (media.kind !== 'video') {
    return { label: b.label, frameIndex: 0, timeMs: null, bbox, crowd: b.crowd, coco: b.coco };
  }
  const fps = media.fps ?? 0;
  const timeMs = b.timeMs ?? (b.frame !== null && fps > 0 ? (b.frame * 1000) / fps : null);
  if (timeMs === null) return `a ${b.label} box of the clip has no frame or time`;
  const outside = outsideClip(b, timeMs, media);
  if (outside) return `a ${b.label} box ${outside}`;
  const frameIndex = sampleIndex(timeMs, b.frame, model);
  return { label: b.label, frameIndex, timeMs, bbox, crowd: b.crowd };
}

/**
 * Why a box's frame or time lies outside the clip, or null. Like a box outside the picture, it
 * labels nothing: 10^15 or −10^300 would otherwise become accepted ground truth. The last frame
 * may start up to one frame period before the end.
 */
function outsideClip(b: ImportedBox, timeMs: number, media: MediaRecord): string | null {
  const duration = media.durationMs;
  const period = media.fps ? 1000 / media.fps : 0;
  const where = b.frame !== null ? `at frame ${b.frame}` : `at ${timeMs} ms`;
  const length = duration === null ? '' : ` (${(duration / 1000).toFixed(1)} s)`;
  if (timeMs < 0 || (b.frame !== null && b.frame < 0))
    return `${where} lies before the start of the clip`;
  if (duration !== null && timeMs > duration + period)
    return `${where} lies past the end of the clip${length}`;
  return null;
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
