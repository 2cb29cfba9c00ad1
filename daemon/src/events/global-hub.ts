import type { GlobalStreamLine } from '../../../contract/api.js';

type Listener = (line: GlobalStreamLine) => void;

/** Fan-out of dashboard-wide changes (session states, permission requests) to live clients. */
export class GlobalHub {
  private readonly listeners = new Set<Listener>();

  publish(line: GlobalStreamLine): void {
    for (const listener of this.listeners) listener(line);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
