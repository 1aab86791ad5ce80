/** The application's events, fanned out to every host listening (IPC windows, bridge sockets). */
import type { EventName, EventPayload } from '../shared/contract/index.js';
import type { EventListener } from './application-types.js';

export class AppEvents {
  private readonly listeners = new Set<EventListener>();
  /** Listeners that have thrown: each is reported once, not on every event. */
  private readonly broken = new WeakSet<EventListener>();

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const l of this.listeners) {
      try {
        l(name, payload);
      } catch (err) {
        // One broken listener (a closed socket) must not stop the others, nor go unnoticed.
        if (this.broken.has(l)) continue;
        this.broken.add(l);
        this.log(`events: a listener failed on ${name}: ${(err as Error).message}`);
      }
    }
  }

  /** Emits at most once per `ms`, always ending with the latest payload (progress, counts). */
  throttled<N extends EventName>(name: N, ms: number): (payload: EventPayload<N>) => void {
    let timer: NodeJS.Timeout | undefined;
    let latest: EventPayload<N> | undefined;
    let last = 0;
    return (payload) => {
      latest = payload;
      const wait = last + ms - Date.now();
      if (wait <= 0) {
        last = Date.now();
        this.emit(name, payload);
        return;
      }
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        if (latest !== undefined) this.emit(name, latest);
      }, wait);
      timer.unref();
    };
  }
}
