/**
 * Video review: the clip plays on the box stage (through a proxy when Chromium cannot play the
 * original), the boxes of the nearest analysed frame follow the picture (VideoOverlay), and a
 * timeline shows detections per class and the reviewed frames. Paused on an analysed frame, its
 * boxes are edited with the image review's workbench: the same tools, keys, undo across items and
 * `?` help, plus the clip's keys (Space, `,` `.`, `<` `>`) and `Relabel track`.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Size } from '@shared/geometry/box-math.js';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { BoxStage } from '../review/box-stage.js';
import type { ReviewScreenProps } from '../review/image-review.js';
import { useItemOrder } from '../review/use-item-order.js';
import { useReviewWorkbench, type ClipAction } from '../review/use-review-workbench.js';
import { ReviewHead, WorkbenchSide, WorkbenchToolbar } from '../review/workbench-parts.js';
import '../../styles/review.css';
import { detectionFrom, editedFrames, nearestFrame, type AnalysedFrame } from './clip-frames.js';
import { createClipClock } from './clip-clock.js';
import { ClipSummary } from './clip-summary.js';
import { DetectionTimeline } from './detection-timeline.js';
import { KeyframeTrack } from './keyframe-track.js';
import { useKeyframes } from './use-keyframes.js';
import { TrackBand } from './track-band.js';
import { TracksPanel } from './tracks-panel.js';
import { useTrackReview } from './use-track-review.js';
import { useClipBoxes } from './use-clip-boxes.js';
import { useAfterPaint } from './use-after-paint.js';
import { useClipFrames } from './use-clip-frames.js';
import { isUnplaced, markUnplaced } from './unplaced-boxes.js';
import { useStableCallback } from './use-stable-callback.js';
import { usePlayable } from './use-playable.js';
import { VideoOverlay } from './video-overlay.js';

const NO_BOXES: AnalysedFrame['boxes'] = [];
const nothingShown = (shown: { boxes: readonly unknown[] }) => shown.boxes.length === 0;
/** While playing, the time shown moves on at most this often (the frame's boxes at once). */
const CLOCK_MS = 100;

export function VideoReview(p: ReviewScreenProps) {
  const { id, solution } = p;
  const detail = useCall('library.item', { id, solution, withBoxes: false });
  const review = useClipBoxes(id, solution);
  const nav = useItemOrder(p.order, id, p.mediaBase);
  const { playable, error, noPicture } = usePlayable(id);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [picture, setPicture] = useState<Size | null>(null);
  const [timeMs, setTimeMs] = useState(0);
  const [paused, setPaused] = useState(true);

  const boxes = useMemo(() => review.data?.boxes ?? [], [review.data]);
  const fps = playable?.fps ?? 25;
  const durationMs = playable?.durationMs ?? detail.data?.item.durationMs ?? 0;
  const frames = useClipFrames(id, boxes, durationMs, playable?.fps ?? 0);
  const framesRef = useRef(frames);
  framesRef.current = frames;
  // After an edit, the timeline first: the tracks (and their interpolation), the chart and the
  // Events render just after it, in a render of their own that holds neither it nor a seek back.
  // The clip's first boxes render all in one piece (there is nothing on screen to keep).
  const now = useMemo(() => ({ boxes, frames }), [boxes, frames]);
  const later = useAfterPaint(now, nothingShown);
  // The playheads and the current event follow this clock; set before the browser paints.
  const [clock] = useState(createClipClock);
  useLayoutEffect(() => clock.set(timeMs), [clock, timeMs]);
  const frame = nearestFrame(frames, timeMs);
  // On an analysed frame: within half a video frame of it (a seek lands on a rounded time).
  const onAnalysed = paused && frame !== undefined && Math.abs(frame.timeMs - timeMs) <= 500 / fps;
  const target = useMemo(
    () =>
      onAnalysed && frame
        ? { frameIndex: frame.index, keyframe: frame.keyframe, timeMs: frame.timeMs }
        : null,
    [onAnalysed, frame],
  );

  const kf = useKeyframes({
    id,
    solution,
    itemBoxes: boxes,
    pathBoxes: later.boxes,
    fps: playable?.fps ?? 0,
    paused,
    timeMs,
    analysed: target,
    frameBoxes: frame?.boxes ?? NO_BOXES,
  });

  // Seeking before the clip's metadata or its boxes have arrived would land nowhere useful.
  const canSeek = video !== null && picture !== null && review.data !== undefined;
  const seek = (ms: number) => {
    if (!video) return;
    video.pause();
    video.currentTime = Math.max(0, ms / 1000);
    setTimeMs(ms);
  };
  const clipAction = (a: ClipAction): boolean => {
    if (!video) return false;
    const at = video.currentTime * 1000;
    if (a.kind === 'play') {
      if (video.paused) void video.play();
      else video.pause();
    } else if (a.kind === 'step') seek(at + (a.step * 1000) / fps);
    else if (a.kind === 'detection') {
      const next = detectionFrom(frames, at, a.step, w.isShown);
      if (next) seek(next.timeMs);
    }
    return true;
  };
  const w = useReviewWorkbench({
    ...p,
    itemBoxes: boxes,
    boxes: kf.shown,
    picture,
    target: kf.target,
    keyframes: kf.hooks,
    clip: true,
    nav,
    onClipAction: clipAction,
    onReplayed: (edits, after) => {
      // An undo or redo that changed other frames only shows the first of them.
      const touched = editedFrames(edits, after);
      const [first] = touched;
      if (first && !touched.some((f) => f.index === frame?.index && f.keyframe === frame.keyframe))
        seek(first.timeMs);
    },
  });

  // Another frame: its boxes, not the last frame's, are the ones selected.
  const { setSelected } = w;
  useEffect(
    () => setSelected((s) => (s.size === 0 ? s : new Set())),
    [frame?.index, frame?.keyframe, setSelected],
  );
  useEffect(() => kf.follow(w.firstSelected?.trackId ?? null));
  // After that reset: the selected tracks' boxes on the new frame are selected.
  const cutMs = paused && !onAnalysed ? timeMs : frame?.timeMs;
  const tracks = useTrackReview({ ...p, boxes: later.boxes, frame, cutMs, w, seek });
  const drawn = useMemo(() => markUnplaced(w.drawn), [w.drawn]);

  // Opened on a box (a mistake from Quality): go to its frame once the clip can seek, then select it.
  const focus = useRef<{ id: number; key: string } | null>(null);
  if (p.focusKey && focus.current?.id !== id) focus.current = { id, key: p.focusKey };
  useEffect(() => {
    const key = focus.current?.id === id ? focus.current.key : null;
    if (!key || !canSeek) return;
    const b = boxes.find((x) => x.key === key);
    const there = frame?.index === b?.frameIndex && frame?.keyframe === b?.keyframe;
    if (b && !there && b.timeMs !== null) return seek(b.timeMs);
    focus.current = { id, key: '' };
    if (b) setSelected(new Set([key]));
  });

  /** While playing: the clock moves on every CLOCK_MS, and at once when the nearest frame changes. */
  const onFrame = (t: number) =>
    setTimeMs((prev) =>
      Math.abs(t - prev) < CLOCK_MS &&
      nearestFrame(framesRef.current, t) === nearestFrame(framesRef.current, prev)
        ? prev
        : t,
    );
  /** A click on the timeline near an analysed frame lands on it (so it can be edited). */
  const seekNear = useStableCallback((ms: number) => {
    const near = nearestFrame(frames, ms);
    seek(near && Math.abs(near.timeMs - ms) <= durationMs / 200 ? near.timeMs : ms);
  });

  const name = detail.data?.item.name ?? '';
  const note =
    paused && frame && !onAnalysed ? (
      <p className="muted small">
        Between analysed frames: tracks are interpolated (dashed; moving one keeps it there), other
        boxes are the nearest frame&apos;s.{' '}
        <button type="button" onClick={() => seek(frame.timeMs)}>
          Go to {(frame.timeMs / 1000).toFixed(2)} s
        </button>{' '}
        to edit them.
      </p>
    ) : null;
  return (
    <div className="screen review video-review">
      <ReviewHead
        name={name}
        path={detail.data?.item.path}
        nav={nav}
        detail={playable?.variant === 'proxy' ? ` · Playing a proxy (${playable.reason})` : ''}
        mark={w.reviewed}
        next={w.reviewNext}
        onOpen={p.onOpen}
        onBack={p.onBack}
      />
      <WorkbenchToolbar w={w} />
      {error ? <ErrorNote error={error} /> : null}
      {playable?.error ? <ErrorNote error={playable.error} /> : null}
      {review.isError ? <ErrorNote error={review.error} /> : null}
      <div className="viewer-body">
        <div className="video-stage">
          {playable?.state === 'making' ? (
            <div className="progress-line">
              <span>Making a playable copy…</span>
              <progress aria-label="Proxy" max={1} value={playable.progress} />
            </div>
          ) : null}
          <div className="video-stage-area">
            <BoxStage
              name={name}
              picture={picture}
              boxes={paused ? drawn : NO_BOXES}
              {...w.stageProps}
              onSelect={tracks.pickBoxes}
            >
              {playable?.state === 'ready' ? (
                <video
                  ref={setVideo}
                  src={playable.url}
                  preload="auto"
                  aria-label={name}
                  onLoadedMetadata={(e) => {
                    const v = e.currentTarget;
                    if (v.videoWidth > 0)
                      setPicture({ width: v.videoWidth, height: v.videoHeight });
                  }}
                  onLoadedData={(e) => e.currentTarget.videoWidth === 0 && noPicture()}
                  onPlay={() => setPaused(false)}
                  onPause={(e) => {
                    setPaused(true);
                    setTimeMs(e.currentTarget.currentTime * 1000);
                  }}
                  onSeeked={(e) => setTimeMs(e.currentTarget.currentTime * 1000)}
                />
              ) : null}
            </BoxStage>
            <VideoOverlay
              video={video}
              active={!paused}
              frames={frames}
              shown={w.isShown}
              hidden={w.filters.hidden}
              selected={w.sel}
              picture={picture}
              view={() => w.stage.current?.view() ?? null}
              boxesAt={kf.playingAt}
              onFrame={onFrame}
            />
          </div>
          <div className="video-controls">
            <button type="button" onClick={() => clipAction({ kind: 'play' })} disabled={!canSeek}>
              {paused ? 'Play' : 'Pause'}
            </button>
            <button
              type="button"
              onClick={() => clipAction({ kind: 'detection', step: -1 })}
              disabled={!canSeek}
              title="<"
            >
              Previous detection
            </button>
            <button
              type="button"
              onClick={() => clipAction({ kind: 'detection', step: 1 })}
              disabled={!canSeek}
              title=">"
            >
              Next detection
            </button>
            <span className="muted" aria-label="Time">
              {(timeMs / 1000).toFixed(2)} s / {(durationMs / 1000).toFixed(1)} s
            </span>
            <KeyframeTrack track={kf.track} onNew={kf.newTrack} />
          </div>
          <DetectionTimeline
            frames={frames}
            shown={w.isShown}
            durationMs={durationMs}
            clock={clock}
            onSeek={seekNear}
          />
          <TrackBand
            tracks={tracks.chosen}
            boxes={later.boxes}
            durationMs={durationMs}
            clock={clock}
          />
          <ClipSummary
            boxes={later.boxes}
            frames={later.frames}
            durationMs={durationMs}
            minScore={w.filters.threshold}
            clock={clock}
            onSeek={seekNear}
          />
        </div>
        <TracksPanel t={tracks} loaded={review.data !== undefined && later === now} />
        <WorkbenchSide
          w={w}
          title={frame ? `Boxes at ${(frame.timeMs / 1000).toFixed(2)} s` : 'Boxes'}
          total={kf.shown.length}
          loaded={review.data !== undefined}
          note={note}
          onRelabelTrack={(trackId, label) => void w.edits.relabelTrack(trackId, label)}
          onSelect={tracks.pickBoxes}
          unconfirmed={isUnplaced}
        />
      </div>
    </div>
  );
}
