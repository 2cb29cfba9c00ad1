import { Injectable, signal } from '@angular/core';

/** A clock ticking each second, shared by every age and countdown on screen. */
@Injectable({ providedIn: 'root' })
export class Now {
  private readonly nowSignal = signal(Date.now());
  readonly ms = this.nowSignal.asReadonly();

  constructor() {
    setInterval(() => this.nowSignal.set(Date.now()), 1000);
  }
}
