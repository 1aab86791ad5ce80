/** Runs the tracker on its own thread (track-thread.ts), one clip after another, with promises. */
import { Worker } from 'node:worker_threads';
import { requireWorkerScript } from '../../node-lib/worker-script.js';
import type { TrackReply, TrackRequest, TrackThreadData } from './track-thread.js';

export type TrackAnswer = Extract<TrackReply, { ranks: Int32Array }>;

export class TrackWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (r: TrackAnswer) => void; reject: (e: Error) => void }
  >();

  constructor(private readonly data: TrackThreadData) {}

  /** The model tracks of one analysis (its result row), read and tracked on the thread. */
  track(resultId: number): Promise<TrackAnswer> {
    const worker = this.started();
    return new Promise<TrackAnswer>((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      // Ref'd while a clip is out: the process must not exit under an awaited answer.
      worker.ref();
      worker.postMessage({ id, resultId } satisfies TrackRequest);
    }).finally(() => {
      if (this.pending.size === 0) this.worker?.unref();
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(requireWorkerScript(import.meta.url, 'track-thread.js'), {
      workerData: this.data,
    });
    w.unref();
    w.on('message', (msg: TrackReply) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if ('error' in msg) p.reject(new Error(msg.error));
      else p.resolve(msg);
    });
    const fail = (err: Error) => {
      if (this.worker === w) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    w.on('error', fail);
    w.on('exit', () => fail(new Error('The tracking thread stopped.')));
    this.worker = w;
    return w;
  }
}
