/**
 * The boxes of the analysed frame nearest the frame on screen, drawn on a canvas over the clip.
 * Drawn from `requestVideoFrameCallback` (the frame's own media time, called just before that frame
 * is composited), so the overlay changes with the picture rather than on `timeupdate` (4 Hz).
 * Self-contained on purpose: the image review's box stage replaces the drawing once it lands.
 */
import { useEffect, useRef } from 'react';
import type { ReviewBox } from '../../../../electron/shared/contract/review-schemas.js';
import { boxName, boxRect } from '../library/viewer/box-geometry.js';
import { nearestFrame, type AnalysedFrame } from './clip-frames.js';

interface VideoOverlayProps {
  video: HTMLVideoElement | null;
  frames: readonly AnalysedFrame[];
  shown: (b: ReviewBox) => boolean;
  selectedKey: string | null;
  /** Told the media time (ms) of each frame drawn. */
  onFrame?(timeMs: number): void;
}

const COLORS = ['#ffb020', '#3fb950', '#f778ba', '#58a6ff', '#d2a8ff', '#ff7b72', '#79c0ff'];

/** A class's colour: stable across frames and sessions. */
export function classColor(label: string): string {
  let h = 0;
  for (let i = 0; i < label.length; i++) h = (h * 31 + label.charCodeAt(i)) | 0;
  return COLORS[Math.abs(h) % COLORS.length] as string;
}

export function drawBoxes(
  canvas: HTMLCanvasElement,
  boxes: readonly ReviewBox[],
  selectedKey: string | null,
): void {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
  if (canvas.height !== Math.round(h * dpr)) canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.font = '600 11px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  for (const box of boxes) {
    const r = boxRect(box.bbox, w, h);
    const color = box.key === selectedKey ? '#2f81f7' : classColor(box.label);
    ctx.lineWidth = box.key === selectedKey ? 3 : 1.5;
    ctx.setLineDash(box.review === 'rejected' ? [4, 3] : []);
    ctx.strokeStyle = color;
    ctx.strokeRect(r.x, r.y, r.w, r.h);
    const text = boxName(box);
    const ty = r.y >= 15 ? r.y - 15 : r.y;
    ctx.fillStyle = color;
    ctx.fillRect(r.x, ty, ctx.measureText(text).width + 6, 15);
    ctx.fillStyle = '#000';
    ctx.fillText(text, r.x + 3, ty + 2);
  }
}

export function VideoOverlay({ video, frames, shown, selectedKey, onFrame }: VideoOverlayProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !video) return;
    let handle = 0;
    const draw = (timeMs: number) => {
      const frame = nearestFrame(frames, timeMs);
      drawBoxes(canvas, frame ? frame.boxes.filter(shown) : [], selectedKey);
      onFrame?.(timeMs);
    };
    const onVideoFrame = (_now: number, meta: VideoFrameCallbackMetadata) => {
      draw(meta.mediaTime * 1000);
      handle = video.requestVideoFrameCallback(onVideoFrame);
    };
    handle = video.requestVideoFrameCallback(onVideoFrame);
    // A seek while paused presents a frame too, but a changed filter or a resize does not.
    draw(video.currentTime * 1000);
    const ro = new ResizeObserver(() => draw(video.currentTime * 1000));
    ro.observe(video);
    return () => {
      video.cancelVideoFrameCallback(handle);
      ro.disconnect();
    };
  }, [video, frames, shown, selectedKey, onFrame]);

  return <canvas ref={canvasRef} className="box-canvas" aria-hidden="true" />;
}
