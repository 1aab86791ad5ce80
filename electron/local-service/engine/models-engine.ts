/**
 * The real detection engine: a pool of worker threads, each holding every model, so inference
 * never blocks the service's event loop. Jobs wait in one queue here and go to whichever worker
 * is idle, which keeps aborts cheap (a queued job never reaches a worker).
 */
import { Worker } from 'node:worker_threads';
import type { SolutionSpec } from '../solutions.js';
import { abortError } from './abort-error.js';
import {
  EngineUnavailableError,
  type DetectionEngine,
  type EngineResult,
  type EngineState,
  type EngineStatus,
  type RgbImage,
} from './engine-types.js';
import { requireWorkerScript } from './resolve-worker-script.js';
import type { DetectRequest, WorkerConfig, WorkerMessage } from './worker-protocol.js';
import { messageOf } from '../../shared/error-message.js';

export interface ModelsEngineOptions {
  workers: number;
  solutions: readonly SolutionSpec[];
  /** 'cpu' is only for diagnosing wasm problems. */
  backend?: 'wasm' | 'cpu';
}

interface Job {
  id: number;
  solutionId: string;
  image: RgbImage;
  signal: AbortSignal | undefined;
  resolve: (r: EngineResult) => void;
  reject: (e: Error) => void;
  /** True once the caller has been answered (e.g. aborted); a late result is then dropped. */
  settled: boolean;
  onAbort: () => void;
}

interface Slot {
  worker: Worker;
  state: EngineState;
  solutionsReady: Set<string>;
  /** Own models this worker could not load, with why; it serves the other solutions. */
  solutionErrors: Map<string, string>;
  current: Job | undefined;
}

/** Pixels are transferred to the worker; copy only when the buffer is shared with other data. */
function transferable(data: Uint8Array): Uint8Array {
  const whole = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
  return whole && data.buffer instanceof ArrayBuffer ? data : data.slice();
}

/**
 * Note for callers: `image.data` is transferred to the worker, so after detect() the caller's
 * array is detached (length 0) unless it was a view on a larger buffer, which is copied instead.
 */
export function createModelsEngine(options: ModelsEngineOptions): DetectionEngine {
  const solutionIds = options.solutions.map((s) => s.id);
  const config: WorkerConfig = {
    solutions: options.solutions.map((s) => ({
      id: s.id,
      model: s.model,
      classes: [...s.classes],
      ...(s.own ? { own: s.own } : {}),
    })),
    backend: options.backend ?? 'wasm',
  };
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let failure: string | undefined;
  let closed = false;
  let markReady: () => void = () => undefined;
  let markFailed: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => undefined); // Callers who never ask must not see an unhandled rejection.

  const settle = (job: Job, outcome: { result: EngineResult } | { error: Error }): void => {
    if (job.settled) return;
    job.settled = true;
    job.signal?.removeEventListener('abort', job.onAbort);
    if ('result' in outcome) job.resolve(outcome.result);
    else job.reject(outcome.error);
  };

  const fail = (message: string): void => {
    if (failure) return;
    failure = message;
    markFailed(new EngineUnavailableError(message));
    for (const job of queue.splice(0)) settle(job, { error: new EngineUnavailableError(message) });
  };

  const pump = (): void => {
    for (const slot of slots) {
      if (slot.state !== 'ready' || slot.current) continue;
      let job = queue.shift();
      while (job?.settled) job = queue.shift();
      if (!job) return;
      slot.current = job;
      const data = transferable(job.image.data);
      const req: DetectRequest = {
        type: 'detect',
        id: job.id,
        solutionId: job.solutionId,
        width: job.image.width,
        height: job.image.height,
        data,
      };
      slot.worker.postMessage(req, [data.buffer as ArrayBuffer]);
    }
  };

  const onMessage = (slot: Slot, msg: WorkerMessage): void => {
    switch (msg.type) {
      case 'solution-ready':
        slot.solutionsReady.add(msg.solutionId);
        return;
      case 'solution-failed':
        slot.solutionErrors.set(msg.solutionId, msg.error);
        return;
      case 'ready':
        slot.state = 'ready';
        if (slots.every((s) => s.state === 'ready')) markReady();
        pump();
        return;
      case 'load-failed':
        slot.state = 'failed';
        fail(`Loading detection models failed: ${msg.error}`);
        return;
      case 'result':
      case 'detect-failed': {
        const job = slot.current;
        slot.current = undefined;
        if (job && job.id === msg.id) {
          settle(
            job,
            msg.type === 'result'
              ? { result: { detections: msg.detections, inferenceMs: msg.inferenceMs } }
              : { error: new Error(msg.error) },
          );
        }
        pump();
        return;
      }
    }
  };

  const onExit = (slot: Slot, reason: string): void => {
    if (closed) return;
    const job = slot.current;
    slot.current = undefined;
    slot.state = 'failed';
    if (job)
      settle(job, { error: new EngineUnavailableError(`Detection worker stopped: ${reason}`) });
    if (slots.every((s) => s.state === 'failed')) fail(`All detection workers stopped: ${reason}`);
    else pump();
  };

  try {
    const script = requireWorkerScript(import.meta.url, 'detect-worker.js');
    for (let i = 0; i < Math.max(1, options.workers); i++) {
      const slot: Slot = {
        worker: new Worker(script, { workerData: config }),
        state: 'loading',
        solutionsReady: new Set(),
        solutionErrors: new Map(),
        current: undefined,
      };
      slot.worker.on('message', (m: WorkerMessage) => onMessage(slot, m));
      slot.worker.on('error', (e) => onExit(slot, e.message));
      slot.worker.on('exit', (code) => onExit(slot, `exit code ${code}`));
      slots.push(slot);
    }
  } catch (err) {
    fail(messageOf(err));
  }

  const solutionError = (id: string): string | undefined =>
    slots.map((s) => s.solutionErrors.get(id)).find((e) => e !== undefined);

  const solutionState = (id: string): EngineState => {
    if (failure || solutionError(id) !== undefined) return 'failed';
    const live = slots.filter((s) => s.state !== 'failed');
    return live.length > 0 && live.every((s) => s.solutionsReady.has(id)) ? 'ready' : 'loading';
  };

  return {
    kind: 'models',
    status(): EngineStatus {
      const solutions = Object.fromEntries(solutionIds.map((id) => [id, solutionState(id)]));
      const errors = solutionIds.flatMap((id) => {
        const error = solutionError(id);
        return error === undefined ? [] : [[id, error] as const];
      });
      const solutionErrors =
        errors.length > 0 ? { solutionErrors: Object.fromEntries(errors) } : {};
      if (failure) return { state: 'failed', solutions, error: failure, ...solutionErrors };
      const state = slots.every((s) => s.state === 'ready') ? 'ready' : 'loading';
      return { state, solutions, ...solutionErrors };
    },
    whenReady: () => ready,
    detect(solutionId, image, signal) {
      return new Promise<EngineResult>((resolve, reject) => {
        if (signal?.aborted) return reject(abortError(signal));
        if (closed || failure) {
          return reject(new EngineUnavailableError(failure ?? 'Detection engine is closed'));
        }
        if (!solutionIds.includes(solutionId)) {
          return reject(new Error(`Unknown solution "${solutionId}"`));
        }
        const unloadable = solutionError(solutionId);
        if (unloadable !== undefined) {
          return reject(new EngineUnavailableError(`${solutionId} could not load: ${unloadable}`));
        }
        const job: Job = {
          id: nextId++,
          solutionId,
          image,
          signal,
          resolve,
          reject,
          settled: false,
          onAbort: () => settle(job, { error: abortError(signal) }),
        };
        signal?.addEventListener('abort', job.onAbort, { once: true });
        queue.push(job);
        pump();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new EngineUnavailableError('Detection engine is closed');
      for (const job of queue.splice(0)) settle(job, { error });
      for (const slot of slots) if (slot.current) settle(slot.current, { error });
      if (!failure) fail('Detection engine is closed');
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
