import { Directive, input } from '@angular/core';

/**
 * A block of text that may scroll (an output, an input, a diff): named as a group for screen
 * readers, and a stop for Tab while it can scroll, so keys scroll it too. `focusable` is false
 * for one too short to scroll, which would only be a needless stop.
 */
@Directive({
  selector: '[appScrollBlock]',
  host: {
    role: 'group',
    '[attr.aria-label]': 'appScrollBlock()',
    '[attr.tabindex]': 'focusable() ? 0 : null',
  },
})
export class ScrollBlock {
  /** What the block holds, as its accessible name. */
  readonly appScrollBlock = input.required<string>();
  readonly focusable = input(true);
}
