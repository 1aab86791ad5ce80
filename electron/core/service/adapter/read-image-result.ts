/** POST /infer/image: the detections are required; image, stats and credits are read when recognised. */
import type { AnswerContext, ImageInfo, ImageResult } from './adapter-types.js';
import type { Size } from './decide-box-forms.js';
import { Notes, type Problems } from './notes.js';
import { readCredits } from './read-credits.js';
import { readDetections } from './read-detections.js';
import { isObject, looseNumberOf, stringOf, textOf, type Json } from './read-values.js';

export function readImageResult(
  raw: unknown,
  ctx: AnswerContext,
  problems: Problems,
): ImageResult | null {
  if (!isObject(raw)) {
    problems.add('imageResult', 'expected a JSON object');
    return null;
  }
  const notes = new Notes();
  const image = readImageInfo(raw.image, notes);
  const given =
    image.analysedWidth !== null && image.analysedHeight !== null
      ? { width: image.analysedWidth, height: image.analysedHeight }
      : null;
  const read = readDetections(raw.detections, 'detections', given, ctx, notes, problems);
  if (!read) return null;
  if (!given && read.derivedSize) {
    notes.understoodAs(
      'image.analysedWidth/Height',
      `${sizeText(read.derivedSize)} (bboxPx against bbox)`,
    );
    image.analysedWidth = read.derivedSize.width;
    image.analysedHeight = read.derivedSize.height;
  }
  const stats: Json = isObject(raw.stats) ? raw.stats : {};
  return {
    detections: read.detections,
    image,
    stats: {
      model: textOf(stats.model),
      inferenceMs: looseNumberOf(stats.inferenceMs),
      totalMs: looseNumberOf(stats.totalMs),
    },
    credits: readCredits(raw.credits, 'credits', notes),
    understanding: notes.list,
  };
}

const sizeText = (s: Size): string => `${s.width}×${s.height}`;

export function readImageInfo(raw: unknown, notes: Notes): ImageInfo {
  const o: Json = isObject(raw) ? raw : {};
  const w = looseNumberOf(o.analysedWidth ?? o.analyzedWidth ?? o.inputWidth);
  const h = looseNumberOf(o.analysedHeight ?? o.analyzedHeight ?? o.inputHeight);
  if (w === null || h === null)
    notes.notPublished('image.analysedWidth/Height', 'bboxPx against bbox');
  return {
    width: looseNumberOf(o.width),
    height: looseNumberOf(o.height),
    analysedWidth: w !== null && w > 0 ? w : null,
    analysedHeight: h !== null && h > 0 ? h : null,
    format: stringOf(o.format),
  };
}
