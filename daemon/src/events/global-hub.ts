import type { GlobalStreamLine } from '../../../contract/api.js';

type Listener = (line: GlobalStreamLine) => void;

/** Fan-out of dashboard-wide changes (session states, permission requests) to live clients. */
export class GlobalHub {
  private readonly listeners = new Set<Listener>();
  private readonly observers = new Set<Listener>();

  publish(line: GlobalStreamLine): void {
    for (const listener of this.listeners) listener(line);
    for (const observer of this.observers) observer(line);
  }

  /**
   * Hears every line without counting as a client (the metrics): a prompt still needs a console
   * or a client listening, else the broker refuses it at once.
   */
  observe(observer: Listener): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The live clients listening (observers not counted). */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
