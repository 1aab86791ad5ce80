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
  /** Boxes scoring less may continue a track but never start one. */
  lowScore: number;
  noise: KalmanNoise;
  /** Longest run of missed frames across which two pieces of track may be joined afterwards. */
  relinkGap: number;
  /**
   * How far the joined piece may start from where the earlier one was heading: widths (or
   * heights) of the box, plus so many per missed frame.
   */
  relinkReach: { base: number; perFrame: number };
}

export const DEFAULT_TRACKER: TrackerOptions = {
  minHits: 3,
  maxMisses: 3,
  gate: DEFAULT_GATE,
  lowGate: { minIou: 0.3, maxCentreDistance: 1.5, maxSizeRatio: 1.5 },
  lowScore: 0.5,
  noise: DEFAULT_NOISE,
  relinkGap: 3,
  relinkReach: { base: 0.6, perFrame: 0.25 },
};

export function trackerOptionsFor(fps: number | undefined): TrackerOptions {
  if (fps === undefined || !Number.isFinite(fps) || fps <= 0) return DEFAULT_TRACKER;
  return {
    ...DEFAULT_TRACKER,
    minHits: fps < 3 ? 2 : 3,
    maxMisses: Math.max(2, Math.round(0.5 * fps)),
    noise: { ...DEFAULT_NOISE, birthVelocity: Math.min(3, Math.max(0.5, 2.5 / fps)) },
    relinkGap: Math.max(4, Math.round(1.2 * fps)),
    relinkReach: { base: 0.6, perFrame: Math.min(2, 1.2 / fps) },
  };
}
