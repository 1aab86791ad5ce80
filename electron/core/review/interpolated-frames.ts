/**
 * Exports of every frame of a clip at its own rate: each track's boxes are interpolated between
 * its anchors (its boxes on analysed frames and a person's keyframes) on every frame in between,
 * as the review draws them. Runs on the boxes an export already chose (filters applied), so an
 * export of accepted boxes interpolates between accepted boxes only. Boxes in no track stay where
 * they are. Images pass through.
 *
 * Streaming: a 2-hour clip at 25 fps with a few objects in view is over a million boxes, so they
 * are made frame by frame while a writer reads them, with one cursor per track in view. Memory
 * holds the clip's own boxes and those cursors, never the in-between boxes.
 */
import {
  interpolateTrack,
  sortAnchors,
  timeOfFrame,
  type InterpolatedBox,
  type TrackAnchor,
} from '../../shared/geometry/track-interpolation.js';
import { clipFrame, trackIdOf, type WritableItem } from '../export/export-model.js';
import type { DetectionRow, ExportItem } from '../store/store-types.js';

type Tracked = DetectionRow & { trackId?: number };

export async function* withInterpolatedFrames(
  items: Iterable<ExportItem> | AsyncIterable<ExportItem>,
): AsyncGenerator<WritableItem> {
  for await (const item of items) yield interpolateItem(item);
}

/**
 * One clip with its tracks' in-between boxes added, every box in frame order: on one frame the
 * clip's own boxes first (in their order), then the in-between ones by track, in the order the
 * tracks first appear among the clip's boxes.
 */
export function interpolateItem(item: ExportItem): WritableItem {
  const fps = item.media.fps;
  if (item.media.kind !== 'video' || fps === null || !(fps > 0)) return item;
  const { detections } = item;
  return {
    ...item,
    detections: {
      frameOrdered: true,
      // Boxes in no track are never interpolated: the clip's own boxes hold every track id.
      maxTrackId: detections.reduce((max, row) => Math.max(max, trackIdOf(row)), 0),
      [Symbol.iterator]: () => clipRows(detections, fps),
    },
  };
}

/** A track being walked: its anchors, and the next in-between box it has to give. */
interface TrackCursor {
  trackId: number;
  /** Where the track first appears among the clip's boxes: orders one frame's in-between boxes. */
  rank: number;
  anchors: TrackAnchor[];
  /** The track's box on each anchor frame (the last one given): label, class and review. */
  rowAt: Map<number, DetectionRow>;
  boxes: Iterator<InterpolatedBox>;
  next: InterpolatedBox | undefined;
  /** The anchor `next` comes after. */
  from: number;
}

function* clipRows(detections: readonly DetectionRow[], fps: number): Generator<DetectionRow> {
  const own = detections
    .map((row) => ({ row, frame: clipFrame(row, fps) }))
    .sort((a, b) => a.frame - b.frame);
  const waiting = trackCursors(detections, fps);
  let live: TrackCursor[] = [];
  let r = 0;
  let w = 0;
  for (;;) {
    let frame = Math.min(own[r]?.frame ?? Infinity, waiting[w]?.next?.frame ?? Infinity);
    for (const t of live) frame = Math.min(frame, t.next?.frame ?? Infinity);
    if (frame === Infinity) return;
    for (; w < waiting.length && waiting[w]?.next?.frame === frame; w++) {
      live = insertByRank(live, waiting[w] as TrackCursor);
    }
    for (; r < own.length && own[r]?.frame === frame; r++)
      yield (own[r] as { row: DetectionRow }).row;
    let ended = false;
    for (const t of live) {
      if (t.next?.frame !== frame) continue;
      yield boxRow(t, t.next, fps);
      t.next = t.boxes.next().value ?? undefined;
      ended ||= t.next === undefined;
    }
    if (ended) live = live.filter((t) => t.next !== undefined);
  }
}

/** The clip's tracks that have in-between boxes, by the frame of their first one. */
function trackCursors(detections: readonly DetectionRow[], fps: number): TrackCursor[] {
  const members = new Map<number, { anchors: TrackAnchor[]; rowAt: Map<number, DetectionRow> }>();
  for (const row of detections) {
    const trackId = trackIdOf(row);
    if (trackId < 0) continue;
    let m = members.get(trackId);
    if (!m) members.set(trackId, (m = { anchors: [], rowAt: new Map() }));
    const frame = clipFrame(row, fps);
    m.anchors.push({ frame, bbox: row.bbox, score: row.score ?? NaN });
    m.rowAt.set(frame, row);
  }
  const cursors: TrackCursor[] = [];
  let rank = 0;
  for (const [trackId, m] of members) {
    const anchors = sortAnchors(m.anchors);
    const boxes = interpolateTrack(anchors);
    const next = boxes.next().value ?? undefined;
    if (next)
      cursors.push({ trackId, rank: rank++, anchors, rowAt: m.rowAt, boxes, next, from: 0 });
  }
  return cursors.sort((a, b) => (a.next?.frame ?? 0) - (b.next?.frame ?? 0));
}

function insertByRank(live: TrackCursor[], t: TrackCursor): TrackCursor[] {
  const at = live.findIndex((l) => l.rank > t.rank);
  return at < 0 ? [...live, t] : [...live.slice(0, at), t, ...live.slice(at)];
}

function boxRow(t: TrackCursor, b: InterpolatedBox, fps: number): Tracked {
  while ((t.anchors[t.from + 1]?.frame ?? Infinity) < b.frame) t.from++;
  // The label, class and review of the anchor the box comes from (the earlier one).
  const source = t.rowAt.get((t.anchors[t.from] as TrackAnchor).frame) as DetectionRow;
  return {
    ...source,
    id: 0,
    frameIndex: b.frame,
    keyframe: true,
    timeMs: timeOfFrame(b.frame, fps),
    bbox: b.bbox,
    score: Number.isNaN(b.score) ? null : b.score,
    trackId: t.trackId,
  };
}
