import { Signal, computed, signal, untracked } from '@angular/core';

/** A value read like a signal that may also be set, until its source changes. */
export interface Followed<T> {
  (): T;
  set(value: T): void;
  update(next: (value: T) => T): void;
}

/**
 * `computation` of `source`, which the page may set or update in between: a new source (compared by
 * identity) puts the computed value back. What Angular's `linkedSignal` gave these pages; its code
 * sat in the console's first bundle (see reading.ts), this loads with them.
 */
export function followed<S, T>(source: () => S, computation: (source: S) => T): Followed<T> {
  const from = computed(source);
  const local = signal<{ over: S; value: T } | null>(null);
  const value = computed(() => {
    const current = from();
    const set = local();
    return set !== null && Object.is(set.over, current) ? set.value : computation(current);
  });
  const read = (() => value()) as Followed<T>;
  read.set = (next) => local.set({ over: untracked(from), value: next });
  read.update = (next) => read.set(next(untracked(value)));
  return read;
}

/** The last value of `source` that was not null or undefined (null before the first). */
export function latest<T>(source: () => T | null | undefined): Signal<T | null> {
  let last: T | null = null;
  return computed(() => (last = source() ?? last));
}
