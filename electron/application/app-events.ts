/** The application's events, fanned out to every host listening (IPC windows, bridge sockets). */
import type { EventName, EventPayload } from '../shared/contract/index.js';
import type { EventListener } from './application-types.js';

export class AppEvents {
  private readonly listeners = new Set<EventListener>();

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const l of this.listeners) {
      try {
        l(name, payload);
      } catch {
        // One broken listener (a closed socket) must not stop the others.
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
