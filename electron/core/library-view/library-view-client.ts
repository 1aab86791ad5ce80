/** The library view on its own thread, called with promises: same methods, same answers. */
import { Worker } from 'node:worker_threads';
import { requireWorkerScript } from '../../node-lib/worker-script.js';
import type { LibraryView } from './library-view.js';

type Queries = Omit<LibraryView, 'close'>;
type MethodName = keyof Queries;

export interface ViewRequest {
  id: number;
  method: MethodName;
  args: unknown[];
}

export type AsyncView = {
  [M in MethodName]: (...args: Parameters<Queries[M]>) => Promise<ReturnType<Queries[M]>>;
};

export class LibraryViewClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  readonly q: AsyncView;

  constructor(file: string, nativeBinding?: string) {
    this.worker = new Worker(requireWorkerScript(import.meta.url, 'library-view-worker.js'), {
      workerData: { file, nativeBinding },
    });
    this.worker.unref();
    this.worker.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error !== undefined) p.reject(new Error(msg.error));
      else p.resolve(msg.result);
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', () => this.failAll(new Error('The library view thread stopped.')));
    this.q = new Proxy({} as AsyncView, {
      get:
        (_t, method: string) =>
        (...args: unknown[]) =>
          this.call(method as MethodName, args),
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private call(method: MethodName, args: unknown[]): Promise<never> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      // Ref'd while a query is out: the process must not exit under an awaited answer.
      this.worker.ref();
      this.worker.postMessage({ id, method, args } satisfies ViewRequest);
    }).finally(() => {
      if (this.pending.size === 0) this.worker.unref();
    }) as Promise<never>;
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
