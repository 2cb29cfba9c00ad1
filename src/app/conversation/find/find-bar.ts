import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  ViewEncapsulation,
  inject,
  input,
  output,
  viewChild,
} from '@angular/core';
import { SearchPage } from '../../../../contract/api/search';
import { ApiClient } from '../../core/api-client';
import { plural } from '../../shared/plural';
import { FindSearch, PAGE_HITS } from './find-search';
import { clearFound } from './find-marks';

/** Typing waits this long (ms) for the next key before asking. */
const DEBOUNCE_MS = 250;

/** The component's words, in the console's language. */
const TEXT = {
  findInTheConversation: $localize`Find in the conversation`,
  find: $localize`Find`,
  previous: $localize`Previous match`,
  next: $localize`Next match`,
  close: $localize`Close the find bar`,
  hint: $localize`Enter or F3: next match, Shift+Enter: previous, Escape: close. Ctrl+F again in this bar: the browser's own find (of the steps drawn only).`,
  none: $localize`No match`,
  count: (current: number, total: number, scanning: boolean) =>
    scanning
      ? current > 0
        ? $localize`${current}:current: of ${total}:total:+, searching…`
        : $localize`${total}:total:+ matches, searching…`
      : current > 0
        ? $localize`${current}:current: of ${total}:total:`
        : plural(total, {
            one: $localize`${total}:total: match`,
            other: $localize`${total}:total: matches`,
          }),
};

/**
 * The page's own find: the whole conversation is searched by the daemon (its rows far from the
 * view are not drawn, so the browser's find cannot see them), and each match is shown by the
 * page's jump. The bar says how many, and which one is shown.
 */
@Component({
  selector: 'app-find-bar',
  changeDetection: ChangeDetectionStrategy.OnPush,
  // Unscoped: the marks' ::highlight() style is the document's (the rows are another component's).
  encapsulation: ViewEncapsulation.None,
  templateUrl: './find-bar.html',
  styleUrl: './find-bar.scss',
})
export class FindBar {
  protected readonly t = TEXT;
  readonly sessionId = input.required<string>();
  /** The seq of the first step in view: where the first Enter starts from. */
  readonly viewSeq = input<() => number>(() => 0);
  /** Go to this event, found holding `query` (the page's jump: read around it, scroll, focus, mark). */
  readonly jump = output<{ seq: number; query: string }>();
  readonly closed = output<void>();

  private readonly api = inject(ApiClient);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  private readonly field = viewChild<ElementRef<HTMLInputElement>>('field');
  readonly search = new FindSearch(
    (q, after) =>
      this.api.read(`/api/sessions/${encodeURIComponent(this.sessionId())}/search`, SearchPage, {
        q,
        after: String(after),
        limit: String(PAGE_HITS),
      }),
    TEXT,
  );
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    inject(DestroyRef).onDestroy(() => {
      clearTimeout(this.timer);
      this.search.clear();
      clearFound();
    });
  }

  /** Puts the keyboard in the field, its text selected to type another. */
  focus(): void {
    const field = this.field()?.nativeElement;
    field?.focus();
    field?.select();
  }

  /** Whether the keyboard is in the bar (a second Ctrl+F there is the browser's). */
  holdsFocus(): boolean {
    return this.host.nativeElement.contains(document.activeElement);
  }

  protected typed(text: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.search.search(text), DEBOUNCE_MS);
  }

  protected onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.closed.emit();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void this.go(event.shiftKey ? 'previous' : 'next');
    }
  }

  /** The next or previous match: a text typed but not yet asked for is asked for first. */
  async go(direction: 'next' | 'previous'): Promise<void> {
    const text = this.field()?.nativeElement.value ?? '';
    if (text !== this.search.query()) {
      clearTimeout(this.timer);
      void this.search.search(text);
      // The first hits are enough to go to: the rest of the count comes on meanwhile.
      await this.search.untilHits();
    }
    const from = this.viewSeq()();
    const seq = direction === 'next' ? this.search.next(from) : this.search.previous(from);
    if (seq !== null) this.jump.emit({ seq, query: this.search.query() });
  }
}
