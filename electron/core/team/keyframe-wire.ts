/**
 * The team wire's form of a keyframe: a change's state, a box key and a honeypot's known labels
 * carry a keyframe between samples as the negative frame index `-(clip frame + 1)`, as desktops
 * of every version (and the hub's rows) read it. Everywhere else a keyframe is a field
 * (shared/geometry/frame-place.ts); this file is where the two meet, both ways.
 */
import type { FramePlace } from '../../shared/geometry/frame-place.js';

/** The wire's frame index of a keyframe on `clipFrame` (never a sample's: samples are ≥ 0). */
export function offSampleIndex(clipFrame: number): number {
  return -(clipFrame + 1);
}

export function isOffSample(frameIndex: number): boolean {
  return frameIndex < 0;
}

/** A place as the wire writes it. */
export const toWireFrame = (p: FramePlace): number =>
  p.keyframe === true ? offSampleIndex(p.frameIndex) : p.frameIndex;

/** A place from the wire's frame index (offSampleIndex is its own inverse). */
export const fromWireFrame = (frameIndex: number): FramePlace =>
  isOffSample(frameIndex)
    ? { frameIndex: offSampleIndex(frameIndex), keyframe: true }
    : { frameIndex };
