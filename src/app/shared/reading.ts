import {
  DestroyRef,
  Injector,
  PendingTasks,
  Signal,
  WritableSignal,
  computed,
  effect,
  inject,
  signal,
  untracked,
} from '@angular/core';

/** A read of the daemon kept in signals: what Angular's `resource()` gave these pages. */
export interface Reading<T> {
  /** The last answer for the current params; undefined before it, after a failure, when idle. */
  readonly value: Signal<T>;
  readonly error: Signal<unknown>;
  /** A read is on its way (the first one, or one asked by `reload`). */
  readonly isLoading: Signal<boolean>;
  /** An answer is shown: `value()` holds it. */
  hasValue(): this is Reading<Exclude<T, undefined>>;
  /** Reads again with the same params; the answer shown stays until the new one comes. */
  reload(): void;
}

export interface ReadingOptions<P, T> {
  /** What the read depends on; undefined holds the reading idle (nothing read, no value). */
  params?: () => P | undefined;
  loader: (request: { params: P }) => Promise<T>;
  injector?: Injector;
}

type State<T> =
  | { status: 'idle' | 'loading' }
  | { status: 'reloading' | 'resolved'; value: T }
  | { status: 'error'; error: unknown };

/**
 * Reads with `loader` whenever `params` change (and on `reload`): an answer for params that have
 * changed since, or that comes after the component is gone, is dropped. Angular's `resource()`
 * did this, but its code (some 4 kB) sat in the console's first bundle, where esbuild puts every
 * part of a core file the shell loads; this one loads with the pages that read.
 */
export function reading<P, T>(options: ReadingOptions<P, T>): Reading<T | undefined> {
  const injector = options.injector ?? inject(Injector);
  const pendingTasks = injector.get(PendingTasks);
  const state = signal<State<T>>({ status: 'idle' });
  const reloads = signal(0);
  const params = options.params ?? (() => true as P);
  let current = 0;
  let destroyed = false;
  injector.get(DestroyRef).onDestroy(() => (destroyed = true));

  const load = (request: P, keep: boolean): void => {
    const id = ++current;
    const shown = state();
    state.set(
      keep && 'value' in shown
        ? { status: 'reloading', value: shown.value }
        : { status: 'loading' },
    );
    const done = pendingTasks.add();
    options
      .loader({ params: request })
      .then(
        (value) => id === current && !destroyed && state.set({ status: 'resolved', value }),
        (error: unknown) => id === current && !destroyed && state.set({ status: 'error', error }),
      )
      .finally(done);
  };

  let last: { request: P | undefined; reloads: number } | null = null;
  effect(
    () => {
      const request = params();
      const asked = reloads();
      untracked(() => {
        const again = last !== null && last.request === request && last.reloads !== asked;
        last = { request, reloads: asked };
        if (request === undefined) {
          current++;
          state.set({ status: 'idle' });
        } else load(request, again);
      });
    },
    { injector },
  );

  return readingOf(state, reloads);
}

/** What a reading shows of its state, and its reload. */
function readingOf<T>(
  state: Signal<State<T>>,
  reloads: WritableSignal<number>,
): Reading<T | undefined> {
  const value = computed(() => {
    const shown = state();
    return 'value' in shown ? shown.value : undefined;
  });
  return {
    value,
    error: computed(() => {
      const shown = state();
      return shown.status === 'error' ? shown.error : undefined;
    }),
    isLoading: computed(() => ['loading', 'reloading'].includes(state().status)),
    hasValue: (() => value() !== undefined) as Reading<T | undefined>['hasValue'],
    reload: () => {
      // As resource() did: nothing to read again while idle, and a read on its way is the new one.
      const { status } = untracked(state);
      if (status !== 'idle' && status !== 'loading') reloads.update((n) => n + 1);
    },
  };
}
