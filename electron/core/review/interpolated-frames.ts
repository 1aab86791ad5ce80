/**
 * Exports of every frame of a clip at its own rate: each track's boxes are interpolated between
 * its anchors (its boxes on analysed frames and a person's keyframes) on every frame in between,
 * as the review draws them. Runs on the boxes an export already chose (filters applied), so an
 * export of accepted boxes interpolates between accepted boxes only. Boxes in no track stay where
 * they are. Images pass through.
 */
import {
  interpolateTrack,
  offSampleIndex,
  sortAnchors,
  timeOfFrame,
  type TrackAnchor,
} from '../../shared/geometry/track-interpolation.js';
import { clipFrame, trackIdOf } from '../export/export-model.js';
import type { DetectionRow, ExportItem } from '../store/store-types.js';

type Tracked = DetectionRow & { trackId?: number };

export async function* withInterpolatedFrames(
  items: Iterable<ExportItem> | AsyncIterable<ExportItem>,
): AsyncGenerator<ExportItem> {
  for await (const item of items) yield interpolateItem(item);
}

/** One clip with its tracks' in-between boxes added, every box in frame order. */
export function interpolateItem(item: ExportItem): ExportItem {
  const fps = item.media.fps;
  if (item.media.kind !== 'video' || fps === null || !(fps > 0)) return item;
  const byTrack = new Map<number, { anchor: TrackAnchor; row: DetectionRow }[]>();
  for (const d of item.detections) {
    const track = trackIdOf(d);
    if (track < 0) continue;
    const list = byTrack.get(track) ?? [];
    list.push({ anchor: { frame: clipFrame(d, fps), bbox: d.bbox, score: d.score }, row: d });
    byTrack.set(track, list);
  }
  const rows: { frame: number; row: DetectionRow }[] = item.detections.map((row) => ({
    frame: clipFrame(row, fps),
    row,
  }));
  const analysed = item.result;
  for (const [trackId, members] of byTrack) {
    const sorted = sortAnchors(members.map((m) => m.anchor));
    const rowAt = new Map(members.map((m) => [m.anchor.frame, m.row]));
    let last = members[0]?.row as DetectionRow;
    for (const b of interpolateTrack(sorted)) {
      // The label, class and review of the anchor the box comes from (the earlier one).
      last = rowAt.get(b.frame - 1) ?? last;
      const row: Tracked = {
        ...last,
        id: 0,
        frameIndex: offSampleIndex(b.frame),
        timeMs: timeOfFrame(b.frame, fps),
        bbox: b.bbox,
        bboxPx: {
          x: b.bbox.x * analysed.analysedWidth,
          y: b.bbox.y * analysed.analysedHeight,
          w: b.bbox.w * analysed.analysedWidth,
          h: b.bbox.h * analysed.analysedHeight,
        },
        score: b.score,
        trackId,
      };
      rows.push({ frame: b.frame, row });
    }
  }
  // Stable: boxes of one frame keep their order, the interpolated ones after the real ones.
  rows.sort((a, b) => a.frame - b.frame);
  return { ...item, detections: rows.map((r) => r.row) };
}
