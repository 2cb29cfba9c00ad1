import { LiveAnnouncer } from '@angular/cdk/a11y';
import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  Injector,
  afterNextRender,
  computed,
  effect,
  inject,
  input,
  output,
  signal,
  viewChildren,
} from '@angular/core';
import { PermissionRequest } from '../../../contract/api';
import { LiveStore } from '../core/live-store';
import { PermissionCard } from './permission-card';
import { arrivalText } from './permission-view';

/**
 * Pending prompts, oldest first. A new one is announced (aria-live, through the CDK announcer);
 * once an answered prompt has left the list, the focus goes to the prompt that took its place (or
 * the one before), else `exhausted` is emitted so the page can put it somewhere sensible.
 */
@Component({
  selector: 'app-prompt-list',
  imports: [PermissionCard],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <ul class="list" [attr.aria-label]="label()">
      @for (request of requests(); track request.id; let i = $index) {
        <li>
          <app-permission-card
            [request]="request"
            [showSession]="showSession()"
            [session]="sessions().get(request.session_id) ?? null"
            (answering)="answering(request.id, i)"
          />
        </li>
      } @empty {
        @if (emptyText(); as empty) {
          <li class="empty">{{ empty }}</li>
        }
      }
    </ul>
  `,
  styles: `
    .list {
      list-style: none;
      padding: 0;
      margin: 0;
      display: flex;
      flex-direction: column;
      gap: 0.75rem;
    }
    .empty {
      padding: 2rem 0;
      color: var(--mat-sys-on-surface-variant);
    }
  `,
})
export class PromptList {
  private readonly live = inject(LiveStore);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  private readonly injector = inject(Injector);

  readonly requests = input.required<readonly PermissionRequest[]>();
  readonly showSession = input(false);
  readonly label = input($localize`Pending prompts`);
  readonly emptyText = input<string | null>(null);
  /** Nothing left to focus after an answer. */
  readonly exhausted = output<void>();

  protected readonly sessions = computed(
    () => new Map(this.live.sessions().map((session) => [session.id, session] as const)),
  );
  private readonly announcer = inject(LiveAnnouncer);
  private readonly cards = viewChildren(PermissionCard);
  private readonly seen = new Set<string>();
  /** The prompt being answered, and where it stood, until it has left the list. */
  private readonly leaving = signal<{ id: string; index: number } | null>(null);

  constructor() {
    effect(() => {
      const fresh = this.requests().filter((request) => !this.seen.has(request.id));
      for (const request of fresh) this.seen.add(request.id);
      if (fresh.length === 1) void this.announcer.announce(arrivalText(fresh[0]!), 'polite');
      else if (fresh.length > 1)
        void this.announcer.announce(`${fresh.length} new prompts are waiting.`, 'polite');
    });
    effect(() => {
      const leaving = this.leaving();
      if (!leaving || this.requests().some((request) => request.id === leaving.id)) return;
      this.leaving.set(null);
      this.moveFocus(leaving.index);
    });
  }

  protected answering(id: string, index: number): void {
    for (const card of this.cards()) card.rearm();
    this.leaving.set({ id, index });
  }

  private moveFocus(index: number): void {
    afterNextRender(
      () => {
        const active = document.activeElement;
        // Only when the focus was lost with the answered card, never pulled from elsewhere.
        if (active && active !== document.body && active.isConnected) return;
        const cards = this.host.nativeElement.querySelectorAll<HTMLElement>('article.card');
        const next = cards[index] ?? cards[index - 1];
        if (next) next.focus();
        else this.exhausted.emit();
      },
      { injector: this.injector },
    );
  }
}
