/**
 * While the clip plays: the boxes of the analysed frame nearest the frame on screen, on a canvas
 * over the box stage, painted by the stage's own painter in the stage's view (zoom and pan follow).
 * Drawn from `requestVideoFrameCallback` (the frame's own media time, called just before that frame
 * is composited), so the boxes change with the picture rather than on `timeupdate` (4 Hz). Paused,
 * the stage itself shows and edits the frame's boxes, and this canvas is clear.
 */
import { useEffect, useRef } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import type { Size } from '@shared/geometry/box-math.js';
import type { View } from '@shared/geometry/viewport.js';
import { paintBoxes, type PaintBox } from '../review/box-painter.js';
import { nearestFrame, type AnalysedFrame } from './clip-frames.js';

interface VideoOverlayProps {
  video: HTMLVideoElement | null;
  /** False while paused: the stage draws the boxes then. */
  active: boolean;
  frames: readonly AnalysedFrame[];
  shown: (b: ReviewBox) => boolean;
  hidden: boolean;
  selected: ReadonlySet<string>;
  picture: Size | null;
  /** The stage's current view (read on every frame drawn). */
  view(): View | null;
  /** The boxes at a media time, from its nearest analysed frame's (tracks interpolated). */
  boxesAt?(
    frameBoxes: readonly ReviewBox[],
    timeMs: number,
  ): readonly (ReviewBox & Pick<PaintBox, 'interpolated'>)[];
  /** Told the media time (ms) of each frame drawn while playing. */
  onFrame?(timeMs: number): void;
}

const SELECTED = '#2f81f7';

export function VideoOverlay(p: VideoOverlayProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const live = useRef(p);
  live.current = p;
  const { video, active, frames, shown, hidden, selected, picture } = p;

  const blank = useRef(true);
  /** Paints the boxes for media time `timeMs` from the latest props. */
  const draw = useRef((timeMs: number) => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const c = live.current;
    // Paused (or hidden) there is nothing to draw: clear once, and read no layout, which on a
    // seek would force the browser to lay the page out in the middle of the seek's render.
    if (!c.active || c.hidden) {
      if (!blank.current) ctx.clearRect(0, 0, canvas.width, canvas.height);
      blank.current = true;
      return;
    }
    blank.current = false;
    const dpr = window.devicePixelRatio || 1;
    const size = { width: canvas.clientWidth, height: canvas.clientHeight };
    if (canvas.width !== Math.round(size.width * dpr)) canvas.width = Math.round(size.width * dpr);
    if (canvas.height !== Math.round(size.height * dpr)) {
      canvas.height = Math.round(size.height * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const frame = nearestFrame(c.frames, timeMs);
    const boxes = frame ? (c.boxesAt?.(frame.boxes, timeMs) ?? frame.boxes) : [];
    paintBoxes(ctx, {
      boxes: boxes.filter(c.shown),
      view: c.view() ?? { scale: 1, offsetX: 0, offsetY: 0 },
      picture: c.picture ?? size,
      window: size,
      selected: c.selected,
      selectedColour: SELECTED,
    });
  }).current;

  // One callback chain per element, never re-registered when props change: it stays first in
  // the frame's callbacks, and reads the props when it runs.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !video) return;
    let handle = 0;
    const onVideoFrame = (_now: number, meta: VideoFrameCallbackMetadata) => {
      const timeMs = meta.mediaTime * 1000;
      draw(timeMs);
      if (!video.paused) live.current.onFrame?.(timeMs);
      handle = video.requestVideoFrameCallback(onVideoFrame);
    };
    handle = video.requestVideoFrameCallback(onVideoFrame);
    const ro = new ResizeObserver(() => draw(video.currentTime * 1000));
    ro.observe(canvas);
    return () => {
      video.cancelVideoFrameCallback(handle);
      ro.disconnect();
    };
  }, [video, draw]);

  // A changed filter, selection, pause or picture presents no frame: paint now.
  useEffect(() => {
    if (video) draw(video.currentTime * 1000);
  }, [video, draw, active, frames, shown, hidden, selected, picture]);

  return <canvas ref={canvasRef} className="box-canvas" aria-hidden="true" />;
}
