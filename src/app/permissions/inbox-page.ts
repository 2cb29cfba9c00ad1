import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  afterRenderEffect,
  inject,
  input,
} from '@angular/core';
import { LiveStore } from '../core/live-store';
import { PromptList } from './prompt-list';

/** The component's words, in the console's language. */
const TEXT = {
  inbox: $localize`Inbox`,
  permissionPromptsAndQuestions: $localize`Permission prompts and questions waiting for you, across every session, oldest first.`,
  connectingToTheDaemon: $localize`Connecting to the daemon…`,
  connectionLostReconnectingAnswers: $localize`Connection lost; reconnecting. Answers may be out of date.`,
  pendingPrompts: $localize`Pending prompts`,
  nothingIsWaitingFor: $localize`Nothing is waiting for you.`,
};

/** Every pending prompt across sessions, oldest first, live. */
@Component({
  selector: 'app-inbox-page',
  imports: [PromptList],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="page" aria-labelledby="inbox-title">
      <h1 id="inbox-title" tabindex="-1">{{ t.inbox }}</h1>
      <p class="lead">
        {{ t.permissionPromptsAndQuestions }}
      </p>
      @if (live.status() === 'connecting' && live.pending().length === 0) {
        <p role="status">{{ t.connectingToTheDaemon }}</p>
      } @else {
        @if (live.status() === 'offline') {
          <p class="offline" role="status">
            {{ t.connectionLostReconnectingAnswers }}
          </p>
        }
        <app-prompt-list
          [requests]="live.pending()"
          [showSession]="true"
          [label]="t.pendingPrompts"
          [emptyText]="t.nothingIsWaitingFor"
          (exhausted)="focusTitle()"
        />
      }
    </section>
  `,
  styles: `
    .page {
      padding: 1.25rem 1.5rem;
      max-width: 60rem;
    }
    .lead {
      color: var(--mat-sys-on-surface-variant);
      margin-top: -0.5rem;
    }
    h1:focus {
      outline: none;
    }
    .offline {
      color: var(--mat-sys-error);
    }
  `,
})
export class InboxPage {
  protected readonly t = TEXT;
  protected readonly live = inject(LiveStore);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  /** `?answer=<id>`: focus that prompt's first control (the palette's "answer the oldest prompt"). */
  readonly answer = input<string>();
  private focused: string | null = null;

  /** The last prompt was answered: the page itself, with its "Nothing is waiting" line, is next. */
  protected focusTitle(): void {
    this.host.nativeElement.querySelector<HTMLElement>('h1')?.focus();
  }

  constructor() {
    afterRenderEffect(() => {
      const id = this.answer();
      if (!id || this.focused === id || !this.live.pending().some((p) => p.id === id)) return;
      const target = this.host.nativeElement.querySelector<HTMLElement>(
        `[data-permission-id="${CSS.escape(id)}"] button, [data-permission-id="${CSS.escape(id)}"] input`,
      );
      if (target) {
        this.focused = id;
        target.focus();
      }
    });
  }
}
