/**
 * A tiny external store for state several components read and plain code changes (the review
 * session, the help dialog): React reads it through useSyncExternalStore, so a change re-renders
 * exactly the readers whose slice changed, and code outside React can read and change it too.
 */
import { useSyncExternalStore } from 'react';

export interface SmallStore<T> {
  get(): T;
  set(next: T | ((state: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): SmallStore<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      const value = typeof next === 'function' ? (next as (s: T) => T)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A slice of the store; `pick` must return a value kept in the state (or a primitive). */
export function useStore<T, S>(store: SmallStore<T>, pick: (state: T) => S): S {
  return useSyncExternalStore(store.subscribe, () => pick(store.get()));
}
