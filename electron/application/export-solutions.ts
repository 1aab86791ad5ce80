/**
 * Which solutions an export takes, and never an empty export without a reason. Without a solution
 * asked for, an export takes the one labelled in its scope, or every one when several are (their
 * boxes joined per file). When the scope holds boxes but the solution and filters leave none, the
 * export is refused with the solutions and filters that hold them, and nothing is written.
 */
import { boxesHeld, type HeldBoxes } from '../core/store/boxes-held.js';
import type { ExportSource, StoreFile } from '../core/store/store-ports.js';
import type { ExportItem, ExportQuery, MediaRecord } from '../core/store/store-types.js';

/** An export that would write no box although its scope holds some. */
export class ExportEmptyError extends Error {
  override readonly name = 'ExportEmptyError';
  readonly code = 'export_empty';
}

const idsOf = (media: readonly MediaRecord[] | undefined) => media?.map((m) => m.id);

/** Without a solution asked for: the only one labelled in the scope, else undefined (all of them). */
export function defaultSolution(
  store: StoreFile,
  media: readonly MediaRecord[] | undefined,
): string | undefined {
  const held = boxesHeld(store.file, idsOf(media));
  return held.length === 1 ? held[0]?.solution : undefined;
}

/** Whether the export's reader yields a box at all (it stops at the first). */
function anyBox(items: Iterable<ExportItem>, ids: ReadonlySet<number> | undefined): boolean {
  for (const item of items) {
    if (ids && !ids.has(item.media.id)) continue;
    if (item.detections.length > 0) return true;
  }
  return false;
}

/**
 * Refuses (ExportEmptyError) an export that would carry no box while its scope holds some, "only
 * accepted" with nothing accepted yet included (issue 23: an export never writes nothing without
 * saying why, and exits non-zero); the sentence names the solutions and filters that hold them.
 */
export function refuseEmptyExport(
  store: ExportSource,
  media: readonly MediaRecord[] | undefined,
  query: ExportQuery,
): void {
  const ids = media ? new Set(media.map((m) => m.id)) : undefined;
  if (anyBox(store.exportItems(query), ids)) return;
  const held = boxesHeld(store.file, idsOf(media)).filter((h) => h.boxes > 0);
  if (held.length === 0) return; // nothing labelled with boxes: files are exported as negatives
  throw new ExportEmptyError(whyEmpty(held, query));
}

const boxesText = (h: HeldBoxes) =>
  `${h.boxes} box${h.boxes === 1 ? '' : 'es'} in ${h.files} file${h.files === 1 ? '' : 's'}`;

function whyEmpty(held: readonly HeldBoxes[], query: ExportQuery): string {
  const asked = query.solution;
  const mine = asked === undefined ? held : held.filter((h) => h.solution === asked);
  if (mine.length === 0) {
    const where = held.map((h) => `${h.solution} (${boxesText(h)})`).join(', ');
    return `Nothing to export: solution ${asked ?? ''} holds no boxes here; they are under ${where}. Export that solution instead.`;
  }
  const reasons = mine.map(
    (h) => `solution ${h.solution} holds ${boxesText(h)}, but ${filtersText(h, query)}`,
  );
  return `Nothing to export: ${reasons.join('; ')}.`;
}

/** Which filters leave none of a solution's boxes, each with what would keep some. */
function filtersText(h: HeldBoxes, q: ExportQuery): string {
  const out: string[] = [];
  if (q.minScore !== undefined && h.maxScore !== null && h.maxScore < q.minScore)
    out.push(`the minimum score ${q.minScore} leaves none (the highest is ${round(h.maxScore)})`);
  if (q.classes && !h.labels.some((l) => q.classes?.includes(l)))
    out.push(`the classes ${q.classes.join(', ')} leave none (its labels: ${h.labels.join(', ')})`);
  if (q.onlyAccepted && h.accepted === 0) out.push('none of them is accepted yet (only accepted)');
  return out.length ? out.join(', and ') : 'the filters together leave none of them';
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Several solutions' items of one file (adjacent: the reader orders by path, then solution) as one
 * item with all their boxes; a later solution's track ids move past the earlier ones'.
 */
export function* joinSolutions(items: Iterable<ExportItem>): Generator<ExportItem> {
  let held: ExportItem | undefined;
  for (const item of items) {
    if (held && held.media.id === item.media.id) {
      held = { ...held, detections: [...held.detections, ...shiftTracks(held, item)] };
      continue;
    }
    if (held) yield held;
    held = item;
  }
  if (held) yield held;
}

function shiftTracks(before: ExportItem, item: ExportItem): ExportItem['detections'] {
  const trackOf = (d: object) => {
    const t = (d as { trackId?: unknown }).trackId;
    return typeof t === 'number' ? t : null;
  };
  let past = -1;
  for (const d of before.detections) past = Math.max(past, trackOf(d) ?? -1);
  return item.detections.map((d) => {
    const t = trackOf(d);
    return t === null ? d : { ...d, trackId: t + past + 1 };
  });
}
