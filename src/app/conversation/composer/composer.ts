import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  Injector,
  afterNextRender,
  computed,
  effect,
  inject,
  input,
  signal,
  viewChild,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { QUEUE_MAX } from '../../../../contract/api';
import { toApiFailure } from '../../core/api-error';
import { consoleErrorMessage, errorMessage } from '../../core/error-messages';
import { SessionsApi } from '../../sessions/sessions-api';
import { ConversationStore } from '../conversation-store';
import { deliveryFor } from './queue-order';
import { LibraryApi } from '../../library/library-api';
import { matchCommands, slashQuery } from './slash-commands';
import {
  type EarlySendOutcome,
  type FirstPaintDraft,
  onFirstPaintDraft,
} from '../../../first-paint/handoff';

/** The component's words, in the console's language. */
const TEXT = {
  messageToTheAgent: $localize`Message to the agent`,
  messageTheAgentEnter: $localize`Message the agent (Enter to send, Shift+Enter for a new line, / for commands)`,
  commands: $localize`Commands`,
  queueAction: $localize`:put in the queue|A button:Queue`,
  send: $localize`Send`,
  addToTheRunning: $localize`Add to the running turn now instead of after it`,
  steerNow: $localize`Steer now`,
  willBeSentNow: $localize`Will be sent now`,
  willBeQueued: (queueLength: unknown, max: unknown) =>
    $localize`Will be queued (${queueLength}:queueLength:/${max}:max:)`,
  sessionEnded: $localize`Session ended`,
  connecting: $localize`Connecting…`,
};

/** Types an instruction; says beforehand whether it goes now or waits in the queue. */
@Component({
  selector: 'app-composer',
  imports: [MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <form class="composer" (submit)="$event.preventDefault(); send()">
      <label for="composer-text" class="visually-hidden">{{ t.messageToTheAgent }}</label>
      <div class="box">
        <textarea
          #box
          id="composer-text"
          rows="2"
          aria-autocomplete="list"
          aria-controls="slash-list"
          [attr.aria-activedescendant]="
            suggestions().length > 0 ? 'slash-' + suggestions()[active()] : null
          "
          [value]="text()"
          (input)="onInput($any($event.target).value)"
          (keydown)="onKey($any($event))"
          [disabled]="ended()"
          [attr.aria-describedby]="'composer-hint'"
          [placeholder]="t.messageTheAgentEnter"
        ></textarea>
        <ul
          id="slash-list"
          role="listbox"
          [attr.aria-label]="t.commands"
          class="slash"
          [hidden]="suggestions().length === 0"
        >
          @for (command of suggestions(); track command; let i = $index) {
            <li
              role="option"
              [id]="'slash-' + command"
              [attr.aria-selected]="i === active()"
              [class.active]="i === active()"
              (mousedown)="$event.preventDefault(); complete(command)"
            >
              /{{ command }}
            </li>
          }
        </ul>
      </div>
      <div class="side">
        <button
          mat-flat-button
          type="submit"
          [disabled]="!text().trim() || delivery() === 'closed'"
        >
          {{ delivery() === 'queued' ? t.queueAction : t.send }}
        </button>
        @if (delivery() === 'queued') {
          <button
            mat-stroked-button
            type="button"
            [disabled]="!text().trim()"
            (click)="send(true)"
            [title]="t.addToTheRunning"
          >
            {{ t.steerNow }}
          </button>
        }
        <span
          id="composer-hint"
          class="hint"
          [class.queued]="delivery() === 'queued'"
          aria-live="polite"
        >
          @switch (delivery()) {
            @case ('now') {
              {{ t.willBeSentNow }}
            }
            @case ('queued') {
              {{ t.willBeQueued(queueLength(), max) }}
            }
            @default {
              {{ ended() ? t.sessionEnded : t.connecting }}
            }
          }
        </span>
      </div>
    </form>
    @if (error(); as error) {
      <p class="error" role="alert">{{ error }}</p>
    }
  `,
  styles: `
    .composer {
      display: flex;
      gap: 0.6rem;
      align-items: stretch;
    }
    .box {
      flex: 1;
      position: relative;
      display: flex;
      min-width: 0;
    }
    .slash {
      position: absolute;
      bottom: 100%;
      left: 0;
      margin: 0 0 0.25rem;
      padding: 0.25rem 0;
      list-style: none;
      min-width: 12rem;
      max-width: 100%;
      max-height: 16rem;
      overflow: auto;
      background: var(--mat-sys-surface-container);
      color: var(--mat-sys-on-surface);
      border: 1px solid var(--mat-sys-outline);
      border-radius: 8px;
      z-index: 2;
    }
    .slash li {
      padding: 0.3rem 0.75rem;
      font-family: ui-monospace, monospace;
      cursor: pointer;
    }
    .slash li.active {
      background: var(--mat-sys-secondary-container);
      color: var(--mat-sys-on-secondary-container);
    }
    textarea {
      flex: 1;
      resize: vertical;
      min-height: 2.75rem;
      max-height: 40vh;
      font: inherit;
      padding: 0.5rem 0.7rem;
      border-radius: 8px;
      border: 1px solid var(--mat-sys-outline);
      background: var(--mat-sys-surface);
      color: var(--mat-sys-on-surface);
    }
    .side {
      display: flex;
      flex-direction: column;
      gap: 0.25rem;
      align-items: stretch;
      justify-content: center;
      min-width: 9rem;
    }
    .hint {
      font-size: 0.75rem;
      color: var(--mat-sys-on-surface-variant);
      text-align: center;
    }
    .hint.queued {
      color: var(--mat-sys-tertiary);
      font-weight: 600;
    }
    .error {
      color: var(--mat-sys-error);
      margin: 0.3rem 0 0;
      font-size: 0.8125rem;
    }
  `,
})
export class Composer {
  protected readonly t = TEXT;
  private readonly api = inject(SessionsApi);
  private readonly store = inject(ConversationStore);
  readonly sessionId = input.required<string>();

  protected readonly max = QUEUE_MAX;
  protected readonly text = signal('');
  /** Sends go one after the other, in the order typed, even when the next is typed before the last answer. */
  private chain: Promise<void> = Promise.resolve();
  protected readonly error = signal<string | null>(null);
  protected readonly queueLength = computed(() => this.store.queue().length);
  protected readonly delivery = computed(() =>
    deliveryFor(this.store.session()?.state, this.queueLength()),
  );
  /**
   * Only a session known to be over closes the box: while it is still being read, the box takes
   * keystrokes as soon as it is painted, and sending waits for the session.
   */
  protected readonly ended = computed(
    () => this.store.session() !== null && this.delivery() === 'closed',
  );

  private readonly library = inject(LibraryApi);
  /** The library's commands for this session's subscription (its own and the common ones). */
  private readonly libraryCommands = signal<string[]>([]);
  /** Set by the first "/" typed: the library is read when its commands are wanted, not on open. */
  private readonly commandsWanted = signal(false);
  private readonly dismissed = signal(false);
  protected readonly active = signal(0);
  /** The agent's own list (from its context line), then the library's. */
  private readonly commands = computed(() => {
    const items = this.store.timeline();
    let own: string[] = [];
    for (const item of items) if (item.kind === 'init') own = item.init.slash_commands ?? own;
    return [...own, ...this.libraryCommands()];
  });
  protected readonly suggestions = computed(() => {
    const query = slashQuery(this.text());
    return query === null || this.dismissed() ? [] : matchCommands(this.commands(), query);
  });

  /** A value of its own, so that the session's other changes (state, counts) read nothing again. */
  private readonly subscriptionId = computed(() => this.store.session()?.subscription_id ?? null);

  private readonly box = viewChild<ElementRef<HTMLTextAreaElement>>('box');
  private readonly injector = inject(Injector);

  constructor() {
    inject(DestroyRef).onDestroy(onFirstPaintDraft((draft) => this.takeDraft(draft)));
    effect(() => {
      const subscriptionId = this.subscriptionId();
      if (!subscriptionId || !this.commandsWanted()) return;
      void this.library
        .list({ subscriptionId, kind: 'command' })
        .then((items) =>
          this.libraryCommands.set(items.filter((i) => i.enabled).map((i) => i.name)),
        )
        .catch(() => this.libraryCommands.set([]));
    });
  }

  /**
   * What was typed in the first paint's box (src/first-paint), with its selection and focus, and
   * the messages it sent whose answer had not come: this composer shows those answers, in turn
   * before anything it sends itself, and never sends them again.
   */
  private takeDraft(draft: FirstPaintDraft): void {
    this.onInput(draft.text);
    for (const early of draft.sent)
      this.chain = this.chain.then(() =>
        early.outcome.then((outcome) => this.settleEarly(early.text, outcome)),
      );
    afterNextRender(
      () => {
        const box = this.box()?.nativeElement;
        if (!box) return;
        if (draft.focused) box.focus();
        box.setSelectionRange(draft.start, draft.end);
      },
      { injector: this.injector },
    );
  }

  protected onInput(value: string): void {
    this.text.set(value);
    if (slashQuery(value) !== null) this.commandsWanted.set(true);
    this.dismissed.set(false);
    this.active.set(0);
  }

  protected complete(command: string): void {
    this.text.set(`/${command} `);
    this.active.set(0);
  }

  protected onKey(event: KeyboardEvent): void {
    const list = this.suggestions();
    if (list.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.active.set((this.active() + step + list.length) % list.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        event.preventDefault();
        this.complete(list[this.active()] ?? list[0]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        this.dismissed.set(true);
        return;
      }
    }
    if (event.key === 'Enter') this.onEnter(event);
  }

  protected onEnter(event: KeyboardEvent): void {
    if (event.shiftKey || event.isComposing) return;
    event.preventDefault();
    void this.send();
  }

  /** Takes the text out of the box at once (so the next one can be typed), then delivers it in turn. */
  send(steer = false): Promise<void> {
    const text = this.text().trim();
    if (!text || this.delivery() === 'closed') return this.chain;
    this.text.set('');
    this.error.set(null);
    const sessionId = this.sessionId();
    this.chain = this.chain.then(() => this.deliver(sessionId, text, steer));
    return this.chain;
  }

  private async deliver(sessionId: string, text: string, steer: boolean): Promise<void> {
    try {
      const result = steer
        ? await this.api.steer(sessionId, text)
        : await this.api.send(sessionId, text);
      if (result.delivery === 'queued') void this.store.refreshQueue();
    } catch (error: unknown) {
      const failure = toApiFailure(error);
      this.refused(text, failure.code, failure.message);
    }
  }

  /** A message the first paint sent, answered once this composer had taken its place. */
  private settleEarly(text: string, outcome: EarlySendOutcome): void {
    if (outcome.ok) {
      if (outcome.delivery === 'queued') void this.store.refreshQueue();
    } else {
      const { code, message } = outcome;
      // The first paint's own words for a failed fetch; the daemon's, translated, for its errors.
      const shown =
        code === 'daemon_unreachable' ? consoleErrorMessage(code) : errorMessage(code, message);
      this.refused(text, code, shown);
    }
  }

  private refused(text: string, code: string, message: string): void {
    this.error.set(
      code === 'queue_full'
        ? $localize`The queue is full (${QUEUE_MAX} instructions). Wait for a turn to finish or remove one.`
        : message,
    );
    // Nothing typed is lost: a refused text comes back, unless something new was typed since.
    if (!this.text()) this.text.set(text);
  }
}
