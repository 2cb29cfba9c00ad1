import { Injectable, Signal, computed, signal } from '@angular/core';
import { PaletteCommand } from './commands';

/**
 * The commands the shown pages contribute (a page's actions, a conversation's turns). A page adds
 * its own while it lives and removes them when it goes; the palette reads them all.
 */
@Injectable({ providedIn: 'root' })
export class PaletteRegistry {
  private readonly contexts = signal<readonly Signal<PaletteCommand[]>[]>([]);

  /** The commands of every shown page, the most recently shown first. */
  readonly commands = computed<PaletteCommand[]>(() =>
    [...this.contexts()].reverse().flatMap((context) => context()),
  );

  /** Adds commands for as long as the page lives; returns the function that removes them. */
  register(commands: Signal<PaletteCommand[]>): () => void {
    this.contexts.update((list) => [...list, commands]);
    return () => this.contexts.update((list) => list.filter((entry) => entry !== commands));
  }
}
