/** Messages between the models engine (main thread) and its detection workers. */
import type { OwnModelRun } from '../onnx/onnx-session.js';
import type { EngineDetection } from './engine-types.js';

/** Passed as `workerData`: what to load. */
export interface WorkerConfig {
  /** `own`: an own ONNX model, run with onnxruntime instead of TF.js. */
  solutions: { id: string; model: string; classes: readonly string[]; own?: OwnModelRun }[];
  /** Tests can force the pure-JS backend; production uses wasm. */
  backend: 'wasm' | 'cpu';
}

export interface DetectRequest {
  type: 'detect';
  id: number;
  solutionId: string;
  width: number;
  height: number;
  /** Transferred, not copied. */
  data: Uint8Array;
}

export type WorkerRequest = DetectRequest;

export type WorkerMessage =
  | { type: 'solution-ready'; solutionId: string }
  /** One solution could not load; the worker serves the others. */
  | { type: 'solution-failed'; solutionId: string; error: string }
  | { type: 'ready'; backend: string; loadMs: number }
  | { type: 'load-failed'; error: string }
  | { type: 'result'; id: number; detections: EngineDetection[]; inferenceMs: number }
  | { type: 'detect-failed'; id: number; error: string };
