import { DestroyRef, computed, inject } from '@angular/core';
import { PaletteCommand } from './commands';
import { PaletteRegistry } from './palette-registry';

/**
 * Adds the commands of a page (or of a part of one) to the palette while it is shown. Call it in a
 * constructor; `build` is read as a computed, so the commands follow the page's state.
 */
export function registerPageCommands(build: () => PaletteCommand[]): void {
  const registry = inject(PaletteRegistry);
  inject(DestroyRef).onDestroy(registry.register(computed(build)));
}
