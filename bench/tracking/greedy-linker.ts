/**
 * The tracking bench's baseline: LabelDesk's first linker, kept as it was when the SORT-style
 * tracker (electron/core/tracking) replaced it. A simple greedy IoU linker: in
 * frame order, each box continues the track of the same label whose last box overlaps it most
 * (IoU ≥ 0.3), if that track was seen at most `maxGap` sampled frames before; else it starts one.
 * Deterministic: the same boxes always get the same ids (1, 2, … in order of first appearance).
 */
import type { TrackInput } from '../../electron/core/tracking/assign-tracks.js';
import { iou, type NormBox } from '../../electron/shared/geometry/box-math.js';

export interface TrackOptions {
  minIou?: number;
  /** Sampled frames a track may miss and still continue (a box the model lost for a moment). */
  maxGap?: number;
}

interface OpenTrack {
  id: number;
  label: string;
  bbox: NormBox;
  lastFrame: number;
}

/** Track ids (from 1) for `boxes`, in input order. Boxes need not be sorted. */
export function greedyTracks(boxes: readonly TrackInput[], options: TrackOptions = {}): number[] {
  const minIou = options.minIou ?? 0.3;
  const maxGap = options.maxGap ?? 2;
  const ids = new Array<number>(boxes.length).fill(0);
  const order = boxes
    .map((_, i) => i)
    .sort((a, b) => {
      const d = (boxes[a] as TrackInput).frameIndex - (boxes[b] as TrackInput).frameIndex;
      return d || a - b;
    });
  let open: OpenTrack[] = [];
  let next = 1;
  for (let start = 0; start < order.length;) {
    const frame = (boxes[order[start] as number] as TrackInput).frameIndex;
    let end = start;
    while (end < order.length && (boxes[order[end] as number] as TrackInput).frameIndex === frame)
      end++;
    open = open.filter((t) => frame - t.lastFrame <= maxGap + 1);
    const pairs: { overlap: number; t: number; b: number }[] = [];
    for (let k = start; k < end; k++) {
      const b = boxes[order[k] as number] as TrackInput;
      open.forEach((t, ti) => {
        if (t.label !== b.label) return;
        const overlap = iou(t.bbox, b.bbox);
        if (overlap >= minIou) pairs.push({ overlap, t: ti, b: k });
      });
    }
    pairs.sort((p, q) => q.overlap - p.overlap || p.b - q.b || p.t - q.t);
    const usedTracks = new Set<number>();
    for (const p of pairs) {
      const bi = order[p.b] as number;
      if (ids[bi] !== 0 || usedTracks.has(p.t)) continue;
      const t = open[p.t] as OpenTrack;
      ids[bi] = t.id;
      usedTracks.add(p.t);
    }
    for (let k = start; k < end; k++) {
      const bi = order[k] as number;
      const b = boxes[bi] as TrackInput;
      if (ids[bi] === 0) {
        ids[bi] = next++;
        open.push({ id: ids[bi], label: b.label, bbox: b.bbox, lastFrame: frame });
      } else {
        const t = open.find((o) => o.id === ids[bi]) as OpenTrack;
        t.bbox = b.bbox;
        t.lastFrame = frame;
      }
    }
    start = end;
  }
  return ids;
}
