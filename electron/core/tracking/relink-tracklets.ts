/**
 * Joins pieces of one object's track that the frame-to-frame tracker left apart (the object was
 * hidden for longer than a track waits, or came back where its prediction no longer reached):
 * before a new id is born, a piece that starts within `relinkGap` missed frames after another
 * ended continues it when it starts where the earlier piece was heading (its last velocity carried
 * over the gap), at a similar size. Closest pairs first, each piece joined at most once each way.
 * Appearance-free: motion, size, class (one class at a time) and the time gap are the cues.
 * At least one of two pieces joined must be a confirmed track: stray boxes never chain into one.
 * A piece that ended outside the picture is never continued: its object left.
 */
import type { NormBox } from '../../shared/geometry/box-math.js';
import type { TrackerOptions } from './tracker-options.js';

export interface Tracklet {
  firstHit: number;
  lastHit: number;
  confirmed: boolean;
  /** Indexes of the boxes, in frame order. */
  boxes: number[];
  /** Velocity of (cx, cy, w, h) per frame at its end. */
  velocity?: readonly number[];
}

interface Link {
  from: number;
  to: number;
  cost: number;
}

export function relinkTracklets(
  pieces: readonly Tracklet[],
  boxes: readonly { bbox: NormBox }[],
  options: TrackerOptions,
): Tracklet[] {
  const bbox = (i: number) => (boxes[i] as { bbox: NormBox }).bbox;
  const byStart = new Map<number, number[]>();
  pieces.forEach((p, i) => {
    const list = byStart.get(p.firstHit);
    if (list) list.push(i);
    else byStart.set(p.firstHit, [i]);
  });
  const links: Link[] = [];
  pieces.forEach((a, from) => {
    // A single box says nothing of where its object was heading.
    if (a.boxes.length < 2) return;
    const end = bbox(a.boxes[a.boxes.length - 1] as number);
    const v = a.velocity ?? [0, 0, 0, 0];
    for (let d = 1; d <= options.relinkGap + 1; d++) {
      for (const to of byStart.get(a.lastHit + d) ?? []) {
        // Two unconfirmed pieces joined would make tracks of stray boxes.
        if (!a.confirmed && !(pieces[to] as Tracklet).confirmed) continue;
        const cost = linkCost(
          end,
          v,
          bbox((pieces[to] as Tracklet).boxes[0] as number),
          d,
          options,
        );
        if (cost !== null) links.push({ from, to, cost });
      }
    }
  });
  links.sort((p, q) => p.cost - q.cost || p.from - q.from || p.to - q.to);
  const next = new Int32Array(pieces.length).fill(-1);
  const hasPrevious = new Uint8Array(pieces.length);
  for (const l of links) {
    if (next[l.from] !== -1 || hasPrevious[l.to]) continue;
    next[l.from] = l.to;
    hasPrevious[l.to] = 1;
  }
  const out: Tracklet[] = [];
  pieces.forEach((p, i) => {
    if (hasPrevious[i]) return;
    const chain: Tracklet = { ...p, boxes: [...p.boxes] };
    for (let k = next[i] as number; k !== -1; k = next[k] as number) {
      const q = pieces[k] as Tracklet;
      chain.boxes.push(...q.boxes);
      chain.lastHit = q.lastHit;
      chain.confirmed ||= q.confirmed;
    }
    if (chain.confirmed) out.push(chain);
  });
  return out;
}

/** How far `start` is from `end` carried `d` frames on, in reaches; null when out of reach. */
function linkCost(
  end: NormBox,
  v: readonly number[],
  start: NormBox,
  d: number,
  options: TrackerOptions,
): number | null {
  if (left(end)) return null;
  const ratioW = end.w / start.w;
  const ratioH = end.h / start.h;
  const r = options.lowGate.maxSizeRatio;
  if (ratioW > r || ratioW < 1 / r || ratioH > r || ratioH < 1 / r) return null;
  const cx = end.x + end.w / 2 + (v[0] as number) * d;
  const cy = end.y + end.h / 2 + (v[1] as number) * d;
  const err = Math.hypot(
    (start.x + start.w / 2 - cx) / end.w,
    (start.y + start.h / 2 - cy) / end.h,
  );
  const reach = options.relinkReach.base + options.relinkReach.perFrame * d;
  return err <= reach ? err / reach + 0.02 * d : null;
}

/**
 * Whether the box's centre lies outside the picture: its object was seen walking out, and a piece
 * starting later inside is another object (joining them swapped ids at the picture's edges).
 */
function left(b: NormBox): boolean {
  const cx = b.x + b.w / 2;
  const cy = b.y + b.h / 2;
  return cx < 0 || cx > 1 || cy < 0 || cy > 1;
}
