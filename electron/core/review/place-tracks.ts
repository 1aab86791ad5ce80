/**
 * A clip's track ids as people see and export them: the model's tracks (computed once per analysis,
 * model-tracks.ts) with people's edits laid over them, in one cheap pass, so an edit never re-runs
 * the tracker:
 * - a box a person put in a track (merge, split, a decision on a whole track) is in that track,
 *   rejected or deleted too (but a drawn box deleted, an undone keyframe, holds no id);
 * - a deleted or rejected box is in no track; moving, accepting or relabelling a box keeps its track;
 *   a model track cut by edits to fewer boxes than the tracker needs to confirm one (at a few
 *   frames a second), none of them confirmed by a person, is too short to be a track any more (as
 *   if the tracker had run again); one the tracker made that short (a clip sampled at 1 fps) stays;
 * - the model's tracks keep the tracker's numbers (1, 2, … by their first box), so merging,
 *   splitting or deleting one renumbers no other; only a model track whose number a person gave
 *   to another track (seen after a re-analysis) moves, past every number in use;
 * - a box a person drew or accepted that is in no track joins the track of its class it overlaps
 *   (IoU ≥ 0.3) on the analysed frame just before or after, if that track has no box on its frame;
 *   otherwise it starts a track (numbered after all others, so no other track is renumbered).
 * Pure: the same boxes and model tracks give the same ids, whatever happened before.
 */
import { iou, type NormBox } from '../../shared/geometry/box-math.js';
import type { ModelTracks } from '../tracking/model-tracks.js';
import { DEFAULT_TRACKER } from '../tracking/sort-tracker.js';
import type { MergedBox } from './merge-corrections.js';

export type TrackedBox = MergedBox & { trackId?: number };

const JOIN_MIN_IOU = 0.3;
/** The tracker's births (DEFAULT_TRACKER.minHits): fewer model boxes are noise, not an object. */
const MIN_BOXES = DEFAULT_TRACKER.minHits;

interface Placed {
  id: number;
  label: string;
  bbox: NormBox;
}

const live = (b: MergedBox) => !b.deleted && b.review !== 'rejected';
const sure = (b: MergedBox) => b.origin !== 'model' || b.review === 'accepted';

/** Model boxes per track rank, counted once per model answer. */
const sizes = new WeakMap<ModelTracks, Map<number, number>>();
function sizesOf(model: ModelTracks): Map<number, number> {
  let out = sizes.get(model);
  if (!out) {
    out = new Map();
    for (const rank of model.rankOf.values()) out.set(rank, (out.get(rank) ?? 0) + 1);
    sizes.set(model, out);
  }
  return out;
}

/** Sets `trackId` on each box in a track; returns `boxes`. */
export function placeTracks(boxes: MergedBox[], model: ModelTracks): TrackedBox[] {
  // Fresh merged boxes carry no `trackId` yet (and `delete` would slow every later read of them).
  const tracked = boxes as TrackedBox[];
  const chosen = new Set<number>();
  const free: TrackedBox[] = [];
  const byRank = new Map<number, TrackedBox[]>();
  for (const b of tracked) {
    // A box in a person's track keeps it even rejected (a rejected track can be found and
    // accepted again) or deleted (its id is never given to another); a drawn box deleted (an
    // undone keyframe) is as if never drawn.
    if (b.personTrack !== null && !(b.deleted && b.origin === 'added')) {
      b.trackId = b.personTrack;
      chosen.add(b.personTrack);
      continue;
    }
    if (!live(b)) continue;
    const rank = b.detectionId === null ? undefined : model.rankOf.get(b.detectionId);
    if (rank === undefined) {
      // A keyframe between samples is only ever in a person's track: the tracker never sees one.
      if (sure(b) && b.keyframe !== true) free.push(b);
      continue;
    }
    const list = byRank.get(rank);
    if (list) list.push(b);
    else byRank.set(rank, [b]);
  }
  // Every id in use after this pass: a track that must move, or starts now, goes past them all.
  let last = Math.max(0, ...chosen, ...byRank.keys());
  for (const rank of [...byRank.keys()].sort((a, b) => a - b)) {
    const members = byRank.get(rank) as TrackedBox[];
    const cut = members.length < (sizesOf(model).get(rank) ?? 0);
    if (cut && members.length < MIN_BOXES && !members.some(sure)) continue;
    const id = chosen.has(rank) ? ++last : rank;
    for (const b of members) b.trackId = id;
  }
  if (free.length) joinOrStart(tracked, free, last);
  return tracked;
}

/** Free sure boxes, in frame order, join a neighbour's track or start their own after `last`. */
function joinOrStart(boxes: TrackedBox[], free: TrackedBox[], last: number): void {
  const byFrame = new Map<number, Placed[]>();
  const add = (frame: number, p: Placed) => {
    const list = byFrame.get(frame);
    if (list) list.push(p);
    else byFrame.set(frame, [p]);
  };
  // Analysed frames only: a keyframe's clip frame is no sample's neighbour.
  for (const b of boxes)
    if (b.trackId !== undefined && b.keyframe !== true)
      add(b.frameIndex, { id: b.trackId, label: b.label, bbox: b.bbox });
  free.sort((a, b) => a.frameIndex - b.frameIndex || a.bbox.x - b.bbox.x || a.bbox.y - b.bbox.y);
  for (const b of free) {
    const here = new Set((byFrame.get(b.frameIndex) ?? []).map((p) => p.id));
    let best: Placed | undefined;
    let bestIou = 0;
    for (const p of [
      ...(byFrame.get(b.frameIndex - 1) ?? []),
      ...(byFrame.get(b.frameIndex + 1) ?? []),
    ]) {
      if (p.label !== b.label || here.has(p.id)) continue;
      const o = iou(p.bbox, b.bbox);
      if (o >= JOIN_MIN_IOU && (!best || o > bestIou)) {
        bestIou = o;
        best = p;
      }
    }
    b.trackId = best ? best.id : ++last;
    add(b.frameIndex, { id: b.trackId, label: b.label, bbox: b.bbox });
  }
}
