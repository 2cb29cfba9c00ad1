import { DestroyRef, Injectable, inject, signal } from '@angular/core';

const MINUTE_MS = 60_000;

/** The clocks shared by every age, countdown and uptime on screen. */
@Injectable({ providedIn: 'root' })
export class Now {
  private readonly secondSignal = signal(Date.now());
  private readonly minuteSignal = signal(Date.now());
  /** Each second: only for what counts seconds (a launch's retry countdown). */
  readonly ms = this.secondSignal.asReadonly();
  /**
   * Set on each minute of the wall clock: the texts that step by the minute all read this one, so
   * they change together, once a minute, however many a page shows. Each with its own phase on a
   * per-second clock, a list of 200 sessions changed its DOM several times a second.
   */
  readonly minute = this.minuteSignal.asReadonly();

  constructor() {
    const seconds = setInterval(() => this.secondSignal.set(Date.now()), 1000);
    let minutes: ReturnType<typeof setTimeout>;
    const nextMinute = (): void => {
      minutes = setTimeout(
        () => {
          this.minuteSignal.set(Date.now());
          nextMinute();
        },
        MINUTE_MS - (Date.now() % MINUTE_MS),
      );
    };
    nextMinute();
    inject(DestroyRef).onDestroy(() => {
      clearInterval(seconds);
      clearTimeout(minutes);
    });
  }
}
