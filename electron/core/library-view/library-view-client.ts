/**
 * The library view on threads of its own, called with promises: same methods, same answers. The
 * grid's queries (page, count, ids, item) have a thread of their own: a page asked at start is
 * answered at once, not after the Folders' totals (a pass over every file) asked just before it.
 */
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

/** The grid's queries, answered by library-browse-worker.ts. */
const BROWSE: ReadonlySet<MethodName> = new Set<MethodName>(['page', 'count', 'ids', 'item']);

export class LibraryViewClient {
  private readonly worker: Worker;
  private readonly browser: Worker;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  readonly q: AsyncView;
  /** While set, the other queries wait for it (see holdTotals). */
  private holding: Promise<void> | null = null;

  constructor(file: string, nativeBinding?: string) {
    this.worker = this.start('library-view-worker.js', file, nativeBinding);
    this.browser = this.start('library-browse-worker.js', file, nativeBinding);
    this.q = new Proxy({} as AsyncView, {
      get:
        (_t, method: string) =>
        (...args: unknown[]) =>
          this.call(method as MethodName, args),
    });
  }

  /**
   * The queries off the grid's thread (folder and class totals, runs…) asked before `until`
   * settles wait for it. At start they are asked with the first grid page, and on two cores a pass
   * over every file took the CPU the page and its paint need.
   */
  holdTotals(until: Promise<unknown>): void {
    const held = until.then(
      () => undefined,
      () => undefined,
    );
    this.holding = held;
    void held.then(() => {
      if (this.holding === held) this.holding = null;
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.worker.terminate(), this.browser.terminate()]);
  }

  private start(script: string, file: string, nativeBinding?: string): Worker {
    const worker = new Worker(requireWorkerScript(import.meta.url, script), {
      workerData: { file, nativeBinding },
    });
    worker.unref();
    worker.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error !== undefined) p.reject(new Error(msg.error));
      else p.resolve(msg.result);
    });
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', () => this.failAll(new Error('The library view thread stopped.')));
    return worker;
  }

  private call(method: MethodName, args: unknown[]): Promise<never> {
    const browse = BROWSE.has(method);
    const held = this.holding;
    if (!browse && held) return held.then(() => this.call(method, args));
    const worker = browse ? this.browser : this.worker;
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      // Ref'd while a query is out: the process must not exit under an awaited answer.
      worker.ref();
      worker.postMessage({ id, method, args } satisfies ViewRequest);
    }).finally(() => {
      if (this.pending.size === 0) {
        this.worker.unref();
        this.browser.unref();
      }
    }) as Promise<never>;
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
