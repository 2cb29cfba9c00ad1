import { Directive, ElementRef, Input, OnChanges, inject } from '@angular/core';
import { fullDateTime, listTime } from './time-format';

/**
 * A time to the second (with its day when that is not today), written into the `<time>` element
 * it is put on; the full date shows on hover (title) and, when focusable, on keyboard focus. Long
 * lists keep only one focusable time per group (a conversation: one per turn).
 *
 * Every row of a conversation has one or two, made anew as the reader scrolls: as a component
 * with signal inputs and computed texts they were an eighth of what scrolling a long conversation
 * allocated (its own view, host element and five reactive nodes each). It is a directive whose
 * inputs write the element once per change, and its styles are global (`_timestamp.scss`).
 */
@Directive({ selector: 'time[appTimestamp]', host: { class: 'timestamp' } })
export class Timestamp implements OnChanges {
  @Input({ required: true }) appTimestamp!: number;
  @Input() focusable = true;
  private readonly time = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;

  ngOnChanges(): void {
    const ms = this.appTimestamp;
    const full = fullDateTime(ms);
    this.time.textContent = listTime(ms);
    this.time.setAttribute('datetime', new Date(ms).toISOString());
    this.time.setAttribute('title', full);
    this.time.setAttribute('data-full', full);
    if (this.focusable) {
      this.time.tabIndex = 0;
      this.time.setAttribute('aria-label', full);
    } else {
      this.time.removeAttribute('tabindex');
      this.time.removeAttribute('aria-label');
    }
  }
}
