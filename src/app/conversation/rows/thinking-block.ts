import { ChangeDetectionStrategy, Component, input, signal } from '@angular/core';
import { Timestamp } from '../../shared/timestamp';

/** The component's words, in the console's language. */
const TEXT = {
  hideThinking: $localize`Hide thinking`,
  showThinking: $localize`Show thinking`,
};

/** The agent's thinking, collapsed until asked for. */
@Component({
  selector: 'app-thinking-block',
  imports: [Timestamp],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div class="thinking">
      <button
        type="button"
        class="toggle"
        [attr.aria-expanded]="open()"
        (click)="open.set(!open())"
      >
        {{ open() ? t.hideThinking : t.showThinking }}
      </button>
      <time [appTimestamp]="ms()" [focusable]="false"></time>
      @if (open()) {
        <pre class="text">{{ text() }}</pre>
      }
    </div>
  `,
  styles: `
    .thinking {
      font-size: 0.8125rem;
      color: var(--mat-sys-on-surface-variant);
    }
    .toggle {
      background: none;
      border: 1px dashed var(--mat-sys-outline);
      border-radius: 1rem;
      padding: 0.1rem 0.7rem;
      color: inherit;
      font: inherit;
      cursor: pointer;
      margin-right: 0.5rem;
    }
    .text {
      white-space: pre-wrap;
      font-style: italic;
      margin: 0.3rem 0 0;
      font-family: inherit;
    }
  `,
})
export class ThinkingBlock {
  protected readonly t = TEXT;
  readonly text = input.required<string>();
  readonly ms = input.required<number>();
  protected readonly open = signal(false);
}
