/**
 * Review by track: the clip's tracks (summarised, sorted), which are selected, and what the
 * `Tracks` buttons and keys do. Picking a track goes to its first box; the selected tracks' boxes
 * on the frame shown are the selected boxes (so the picture highlights them, and the image tools
 * act on them). Each action is one undo step, however many tracks it takes.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ReviewBox, ReviewEdit } from '@shared/contract/review-schemas.js';
import { useApiHandle } from '../../api/api-context.js';
import { codedError } from '../../api/error-text.js';
import { useCommands } from '../../keyboard/use-commands.js';
import type { ReviewSession } from '../review/review-session.js';
import type { Workbench } from '../review/use-review-workbench.js';
import type { AnalysedFrame } from './clip-frames.js';
import {
  keepExisting,
  NO_TRACKS,
  onlyTrack,
  tracksOfBoxes,
  type TrackSelection,
} from './track-selection.js';
import {
  sortTracks,
  summariseTracks,
  type TrackSort,
  type TrackSummary,
} from './track-summaries.js';

interface TrackReviewOptions {
  id: number;
  solution: string;
  session: ReviewSession;
  /** Every box of the clip. */
  boxes: readonly ReviewBox[];
  /** The analysed frame shown (nearest the playhead). */
  frame: AnalysedFrame | undefined;
  /** Where `Split track` cuts: the analysed frame shown, or the time shown when paused between. */
  cutMs: number | undefined;
  w: Workbench;
  seek(timeMs: number): void;
}

type Call = () => Promise<{ inverse: ReviewEdit[] }>;

export function useTrackReview(o: TrackReviewOptions) {
  const { api } = useApiHandle();
  const [sort, setSort] = useState<TrackSort>('start');
  const [picked, setPicked] = useState<{ clip: number; sel: TrackSelection }>({
    clip: o.id,
    sel: NO_TRACKS,
  });
  const tracks = useMemo(() => summariseTracks(o.boxes), [o.boxes]);
  const byId = useMemo(() => new Map(tracks.map((t) => [t.id, t])), [tracks]);
  const sorted = useMemo(() => sortTracks(tracks, sort), [tracks, sort]);
  // Another clip starts with none; a merged or deleted track leaves the selection.
  const selection = keepExisting(picked.clip === o.id ? picked.sel : NO_TRACKS, (id) =>
    byId.has(id),
  );
  const chosen = useMemo(
    () => [...selection.ids].flatMap((id) => byId.get(id) ?? []).sort((a, b) => a.id - b.id),
    [selection, byId],
  );
  const active = selection.active === null ? undefined : byId.get(selection.active);
  const select = (sel: TrackSelection) => setPicked({ clip: o.id, sel });

  // The picture follows: on each frame shown, the selected tracks' boxes there are selected.
  // Only a new frame or a new selection re-selects: a box a person picks on this frame stays.
  const { setSelected } = o.w;
  const frameBoxes = useRef(o.frame?.boxes);
  frameBoxes.current = o.frame?.boxes;
  const shownIndex = o.frame ? `${o.frame.index}${o.frame.keyframe ? 'k' : ''}` : undefined;
  const idsKey = [...selection.ids].join(',');
  // A selection that came from the boxes a person picked: they stay as picked (not re-selected).
  const fromBoxes = useRef<string | null>(null);
  useEffect(() => {
    const echo = fromBoxes.current === idsKey;
    fromBoxes.current = null;
    if (idsKey === '' || echo) return;
    const ids = new Set(idsKey.split(',').map(Number));
    const here = (frameBoxes.current ?? []).filter((b) => b.trackId !== null && ids.has(b.trackId));
    setSelected(new Set(here.map((b) => b.key)));
  }, [idsKey, shownIndex, setSelected]);

  const ref = { id: o.id, solution: o.solution };
  /** One call, one undo step (each call is one transaction: all of it or nothing). */
  const run = (label: string, call: Call) => {
    void o.w.edits.recorded(label, async () => {
      try {
        return { inverse: (await call()).inverse };
      } catch (err) {
        o.session.fail(codedError(err));
        return { inverse: [] };
      }
    });
    return true;
  };
  // Every selected track in one call: all of them or none (one transaction on the other side).
  const decide = (kind: 'accept' | 'reject' | 'delete') =>
    chosen.length > 0 &&
    run(`${kind} track`, () =>
      api.call('review.editTrack', { ...ref, trackIds: chosen.map((t) => t.id), kind }),
    );
  const merge = () => {
    if (chosen.length < 2) return false;
    const trackIds = chosen.map((t) => t.id);
    // The merged track takes the smallest id; the others' ids may go to other tracks after it.
    select(onlyTrack(Math.min(...trackIds)));
    return run('merge tracks', () => api.call('review.mergeTracks', { ...ref, trackIds }));
  };
  // The cut must fall after the track's first box and not after its last (times, not frame
  // indices: a keyframe between samples has an index that says nothing of its place).
  const { cutMs } = o;
  const canSplit =
    chosen.length === 1 &&
    active !== undefined &&
    cutMs !== undefined &&
    cutMs > active.startMs &&
    cutMs <= active.endMs;
  const split = () =>
    canSplit &&
    run('split track', () =>
      api.call('review.splitTrack', {
        ...ref,
        trackId: active.id,
        // A keyframe's frame is no sample: the cut is placed by its time alone.
        frameIndex: o.frame?.keyframe ? 0 : (o.frame?.index ?? 0),
        timeMs: cutMs,
      }),
    );
  const goTo = (end: 'startMs' | 'endMs') => (active ? o.seek(active[end]) : false);

  useCommands('clip', {
    handlers: {
      'track.first': () => goTo('startMs'),
      'track.last': () => goTo('endMs'),
      'track.accept': () => decide('accept'),
      'track.reject': () => decide('reject'),
      'track.delete': () => decide('delete'),
      'track.merge': merge,
      'track.split': split,
    },
  });

  return {
    tracks: sorted,
    sort,
    setSort,
    selection,
    chosen,
    active,
    /** Boxes picked on the picture or in the Boxes list: their tracks are selected in the list. */
    pickBoxes(keys: ReadonlySet<string>) {
      setSelected(keys);
      const next = tracksOfBoxes(
        selection,
        o.w.shown.filter((b) => keys.has(b.key)),
      );
      const key = [...next.ids].join(',');
      if (key !== idsKey) fromBoxes.current = key;
      select(next);
    },
    /** A click or a walk in the list: the clip goes to the picked track's first box. */
    pick(sel: TrackSelection, track: TrackSummary) {
      select(sel);
      o.seek(track.startMs);
    },
    decide,
    merge,
    split,
    canSplit,
  };
}

export type TrackReview = ReturnType<typeof useTrackReview>;
