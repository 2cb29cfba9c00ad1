import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { fullDateTime, listTime } from './time-format';

/**
 * A time to the second (with its day when that is not today); the full date shows on hover (title) and, when focusable, on keyboard
 * focus. Long lists keep only one focusable time per group (a conversation: one per turn).
 */
@Component({
  selector: 'app-timestamp',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<time
    [attr.tabindex]="focusable() ? 0 : null"
    [attr.datetime]="iso()"
    [attr.title]="full()"
    [attr.aria-label]="focusable() ? full() : null"
    [attr.data-full]="full()"
    >{{ clock() }}</time
  >`,
  styles: `
    :host {
      position: relative;
      display: inline-block;
    }
    time {
      font-variant-numeric: tabular-nums;
      color: var(--mat-sys-on-surface-variant);
      font-size: 0.75rem;
      border-radius: 3px;
    }
    time:focus-visible::after {
      content: attr(data-full);
      position: absolute;
      left: 0;
      top: 100%;
      z-index: 5;
      white-space: nowrap;
      background: var(--mat-sys-inverse-surface);
      color: var(--mat-sys-inverse-on-surface);
      padding: 0.2rem 0.4rem;
      border-radius: 4px;
      font-size: 0.75rem;
    }
  `,
})
export class Timestamp {
  readonly ms = input.required<number>();
  readonly focusable = input(true);
  protected readonly clock = computed(() => listTime(this.ms()));
  protected readonly full = computed(() => fullDateTime(this.ms()));
  protected readonly iso = computed(() => new Date(this.ms()).toISOString());
}
