import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { Timestamp } from '../../shared/timestamp';
import { OpenedParts } from './opened-parts';

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
      <button type="button" class="toggle" [attr.aria-expanded]="open()" (click)="toggle()">
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
  /** The row's key, under which the page keeps it open while it is drawn again. */
  readonly rowKey = input.required<string>();
  /** The page's (a row drawn again comes back as it was left), else this block's own. */
  private readonly parts = inject(OpenedParts, { optional: true }) ?? new OpenedParts();
  protected readonly open = computed(() => this.parts.isOpen(this.rowKey(), 'thinking'));

  protected toggle(): void {
    this.parts.set(this.rowKey(), 'thinking', !this.open());
  }
}
