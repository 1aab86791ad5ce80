/**
 * The time shown in the clip, as a small store: the playheads and the current event follow it
 * on their own, so a seek renders them and not the timeline, the chart or the lists around them.
 */
import { useSyncExternalStore } from 'react';

export interface ClipClock {
  get(): number;
  set(timeMs: number): void;
  subscribe(listener: () => void): () => void;
}

export function createClipClock(): ClipClock {
  let now = 0;
  const listeners = new Set<() => void>();
  return {
    get: () => now,
    set(timeMs) {
      if (timeMs === now) return;
      now = timeMs;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * What a component reads from the clock: it renders again only when `select` answers something
 * else (keep the answer a primitive, so equal answers compare equal).
 */
export function useClockValue<T>(clock: ClipClock, select: (timeMs: number) => T): T {
  return useSyncExternalStore(clock.subscribe, () => select(clock.get()));
}
