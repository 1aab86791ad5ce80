/** What the HTTP layer needs from a detection engine; the models engine and the null engine both provide it. */
import type { Box } from '../../shared/geometry/box.js';

/** Packed RGB pixels (3 bytes per pixel, row-major), at the analysed resolution. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A box normalised to 0–1 of the analysed image: the one box of electron/shared. */
export type NormalisedBox = Box;

export interface EngineDetection {
  label: string;
  classId: number;
  score: number;
  box: NormalisedBox;
}

export interface EngineResult {
  detections: EngineDetection[];
  /** Time spent inside the model (pre-processing tensors, inference, decoding boxes). */
  inferenceMs: number;
}

/** 'off': a service started with `analysis: false` (see off-engine.ts). */
export type EngineState = 'loading' | 'ready' | 'failed' | 'off';

export interface EngineStatus {
  state: EngineState;
  /** Per-solution readiness, keyed by solution id. */
  solutions: Record<string, EngineState>;
  /** Set when state is 'failed'. */
  error?: string;
  /** Solutions that could not load (an own model), with why; the others are served. */
  solutionErrors?: Record<string, string>;
}

export interface DetectionEngine {
  readonly kind: 'models' | 'null' | 'off';
  status(): EngineStatus;
  /** Resolves once every model is loaded; rejects if loading failed. */
  whenReady(): Promise<void>;
  /**
   * Runs one solution on one image. Rejects with an AbortError when the signal fires before the
   * work starts; work already on a worker finishes and its result is dropped.
   */
  detect(solutionId: string, image: RgbImage, signal?: AbortSignal): Promise<EngineResult>;
  close(): Promise<void>;
}

export class EngineUnavailableError extends Error {
  override readonly name = 'EngineUnavailableError';
}
