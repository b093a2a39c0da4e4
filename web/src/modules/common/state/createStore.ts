import { useSyncExternalStore } from 'react';

export type Store<S> = {
  get: () => S;
  set: (patch: Partial<S> | ((state: S) => Partial<S>)) => void;
  subscribe: (listener: () => void) => () => void;
  reset: () => void;
};

/** A small store for one feature's client state (STYLE.md: small stores per feature). */
export function createStore<S extends object>(initial: () => S): Store<S> {
  let state = initial();
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());
  return {
    get: () => state,
    set(patch) {
      const next = typeof patch === 'function' ? patch(state) : patch;
      const changed = Object.keys(next).some((key) => !Object.is(next[key as keyof S], state[key as keyof S]));
      if (!changed) return;
      state = { ...state, ...next };
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reset() {
      state = initial();
      emit();
    },
  };
}

/** Reads a slice of a store; the selector must return a primitive or a stable reference. */
export function useStore<S, T>(store: Store<S>, selector: (state: S) => T): T {
  return useSyncExternalStore(
    store.subscribe,
    () => selector(store.get()),
    () => selector(store.get()),
  );
}
