/**
 * The tracker's settings, and how they follow the clip's sampling rate: at 1 analysed frame a
 * second an object moves several of its widths between frames and a hidden one may stay hidden
 * for frames that are seconds; at 10 a second it barely moves and a short occlusion spans many
 * frames. Unknown rate: the settings of a few frames a second.
 */
import { DEFAULT_NOISE, type KalmanNoise } from './kalman-box.js';
import { DEFAULT_GATE, type MatchGate } from './match-cost.js';

export interface TrackerOptions {
  minHits: number;
  maxMisses: number;
  gate: MatchGate;
  /** The gate for a low-score box continuing a track (ByteTrack's second stage): tighter. */
  lowGate: MatchGate;
  /**
   * Boxes scoring less may continue a track but never start one. Lower than ByteTrack's 0.6: the
   * objects model keeps boxes from 0.3, and on real clips people seen at 0.3–0.5 for seconds are
   * people (0.5 lost tracks of vtest.avi's walkers; the synthetic scenes scored a little higher).
   */
  lowScore: number;
  noise: KalmanNoise;
  /** Longest run of missed frames across which two pieces of track may be joined afterwards. */
  relinkGap: number;
  /**
   * How far the joined piece may start from where the earlier one was heading: widths (or
   * heights) of the box, plus so many per missed frame.
   */
  relinkReach: { base: number; perFrame: number };
  /**
   * A box's measurement noise grows as its score falls (the NSA Kalman filter of GIAOTracker,
   * Du et al. 2021): its variance is multiplied by scoreTrust × (1 − score) where that exceeds 1.
   * 0: every box is trusted alike.
   */
  scoreTrust: number;
  /**
   * Cost added per unit of (1 − score) to a pair: of two boxes that fit a track about as well,
   * the surer one continues it (a weak box beside it is often another object half seen).
   */
  scoreWeight: number;
}

export const DEFAULT_TRACKER: TrackerOptions = {
  minHits: 3,
  maxMisses: 3,
  gate: DEFAULT_GATE,
  lowGate: { minIou: 0.3, maxCentreDistance: 1.5, maxSizeRatio: 1.5 },
  lowScore: 0.35,
  noise: DEFAULT_NOISE,
  relinkGap: 3,
  relinkReach: { base: 0.6, perFrame: 0.25 },
  scoreTrust: 0,
  scoreWeight: 0,
};

export function trackerOptionsFor(fps: number | undefined): TrackerOptions {
  if (fps === undefined || !Number.isFinite(fps) || fps <= 0) return DEFAULT_TRACKER;
  if (fps < 3) {
    // Seconds between frames: objects move and turn far, so the gates are wide and two boxes
    // in a row make a track (a fast one crosses the picture in a few frames).
    return {
      ...DEFAULT_TRACKER,
      minHits: 2,
      // Sizes tell walkers apart where motion cannot: a second's jump leaves predictions loose,
      // and two walkers crossing both fit the same box (crossings at 1 fps on held-out seeds:
      // 117 ID switches with size only weighed on overlap at 0.5, 37 with it on every pair).
      gate: { ...DEFAULT_GATE, sizeWeight: 3, farSizeWeight: 2 },
      noise: { ...DEFAULT_NOISE, birthVelocity: 1.5 },
      relinkGap: 4,
      relinkReach: { base: 1.5, perFrame: 3 },
    };
  }
  // Frames close together: overlap counts from IoU 0.3, velocities are steady, a track waits ~1 s.
  const second = Math.round(1.2 * fps);
  return {
    ...DEFAULT_TRACKER,
    maxMisses: second,
    // Up to ~8 fps two walkers that overlap do so for a few frames, and the one whose size a box
    // keeps is the better guess; at 10 fps they overlap for many frames, each one a chance for a
    // size measured with noise to swap them (crossings at 10 fps: 10 ID switches with it, 6
    // without), and distrusting weak boxes keeps their estimates apart instead (2).
    gate: { minIou: 0.3, maxCentreDistance: 2.5, maxSizeRatio: 2, sizeWeight: fps < 8 ? 0.5 : 0 },
    // A weak box continues a track only on a clear overlap, as in ByteTrack (IoU 0.5).
    lowGate: { minIou: 0.5, maxCentreDistance: 0, maxSizeRatio: 1.5 },
    noise: { ...DEFAULT_NOISE, velocity: 0.01, birthVelocity: Math.max(0.5, 2.5 / fps) },
    // Hidden ~1 s, then a few weak or missed boxes before a sure one: pieces up to 1.8 s apart
    // are joined (occlusions on held-out seeds: 10 ID switches at 5 fps with 1.2 s, 6 with 1.8 s).
    relinkGap: Math.max(4, Math.round(1.8 * fps)),
    relinkReach: { base: 0.8, perFrame: 2 / fps },
    scoreTrust: fps < 8 ? 0 : 3,
    // A half-seen object beside a tracked one scores low; at 10 fps weak boxes are distrusted
    // in the filter instead (scoreTrust).
    scoreWeight: fps < 8 ? 0.5 : 0,
  };
}
