import { ListingError } from './listing-reasons.js';

/** Thrown when more listings wait than the slots hold in their queue (the route answers 503). */
export class ListingsBusyError extends ListingError {}

/**
 * A small counting semaphore for MCP listings: at most `running` at once, at most `waiting` in line
 * (each waits no longer than its own deadline); past that a listing is refused at once.
 */
export class ListingSlots {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  get inUse(): number {
    return this.active;
  }

  acquire(deadline: AbortSignal): Promise<() => void> {
    if (this.active < this.running) return Promise.resolve(this.take());
    if (this.queue.length >= this.waiting)
      return Promise.reject(new ListingsBusyError('too many MCP listings are running; try again'));
    return new Promise((resolve, reject) => {
      const turn = (): void => {
        deadline.removeEventListener('abort', giveUp);
        resolve(this.take());
      };
      const giveUp = (): void => {
        const at = this.queue.indexOf(turn);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new ListingError('the deadline passed while other listings ran'));
      };
      if (deadline.aborted) return giveUp();
      deadline.addEventListener('abort', giveUp, { once: true });
      this.queue.push(turn);
    });
  }

  private take(): () => void {
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.queue.shift()?.();
    };
  }
}
