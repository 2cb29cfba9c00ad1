import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  computed,
  effect,
  inject,
  input,
  signal,
  viewChild,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { Session, SessionTitle as TitleSchema, TITLE_MAX } from '../../../contract/api';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { PageTitle } from '../core/page-title';
import { followed } from '../shared/followed';
import { SessionsApi } from './sessions-api';
import { sessionName, shortId } from './session-name';

/** The component's words, in the console's language. */
const TEXT = {
  sessionTitle: $localize`Session title`,
  saving: $localize`Saving…`,
  save: $localize`Save`,
  cancel: $localize`Cancel`,
  renameThisSession: $localize`Rename this session`,
  rename: $localize`Rename`,
};

/**
 * A session's title with its short id, renamed in place (Enter saves, Escape cancels). It also
 * names the browser tab after the session while it is shown.
 */
@Component({
  selector: 'app-session-title',
  imports: [MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (editing()) {
      <h1 class="visually-hidden">{{ name() }}</h1>
      <form class="rename" (submit)="$event.preventDefault(); save()">
        <label class="visually-hidden" for="session-title-field">{{ t.sessionTitle }}</label>
        <input
          #field
          id="session-title-field"
          class="field"
          type="text"
          [maxLength]="max"
          [value]="draft()"
          (input)="draft.set($any($event.target).value)"
          (keydown.escape)="cancel()"
          [attr.aria-invalid]="problem() !== null"
          [attr.aria-describedby]="problem() ? 'session-title-problem' : null"
          autocomplete="off"
        />
        <button mat-flat-button type="submit" [disabled]="saving()">
          {{ saving() ? t.saving : t.save }}
        </button>
        <button mat-button type="button" (click)="cancel()">{{ t.cancel }}</button>
      </form>
      @if (problem(); as problem) {
        <p id="session-title-problem" class="problem" role="alert">{{ problem }}</p>
      }
    } @else {
      <h1 class="title">
        <span class="name">{{ name() }}</span>
        <span class="mono id" [title]="session().id">{{ short() }}</span>
      </h1>
      <button
        #renameButton
        mat-button
        type="button"
        class="rename-button"
        (click)="edit()"
        [attr.aria-label]="t.renameThisSession"
      >
        {{ t.rename }}
      </button>
    }
  `,
  styles: `
    :host {
      display: inline-flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0.25rem 0.5rem;
      min-width: 0;
    }
    .title {
      font: var(--mat-sys-title-medium);
      margin: 0;
      overflow-wrap: anywhere;
    }
    .name {
      margin-right: 0.5rem;
    }
    .id {
      color: var(--mat-sys-on-surface-variant);
      font-size: 0.8125rem;
    }
    .rename {
      display: inline-flex;
      flex-wrap: wrap;
      gap: 0.5rem;
      align-items: center;
    }
    .field {
      font: inherit;
      min-width: min(24rem, 70vw);
      padding: 0.2rem 0.4rem;
      color: inherit;
      background: var(--mat-sys-surface-container);
      border: 1px solid var(--mat-sys-outline);
      border-radius: 4px;
    }
    .problem {
      flex-basis: 100%;
      margin: 0;
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-error);
    }
  `,
})
export class SessionTitleView {
  protected readonly t = TEXT;
  private readonly api = inject(SessionsApi);
  private readonly page = inject(PageTitle);

  readonly session = input.required<Session>();
  protected readonly max = TITLE_MAX;

  /** The saved title until the stream brings the session back with it. */
  private readonly saved = followed(this.session, (session): string | null => session.title);
  protected readonly name = computed(() =>
    sessionName({ id: this.session().id, title: this.saved() }),
  );
  protected readonly short = computed(() => shortId(this.session().id));
  protected readonly editing = signal(false);
  protected readonly draft = signal('');
  protected readonly saving = signal(false);
  protected readonly error = signal<ApiFailure | null>(null);
  protected readonly problem = computed(() => {
    const error = this.error();
    if (error) return $localize`Not renamed: ${error.message}`;
    const checked = TitleSchema.safeParse(this.draft());
    return checked.success || this.draft().trim() === '' ? null : checked.error.issues[0]!.message;
  });

  private readonly field = viewChild<ElementRef<HTMLInputElement>>('field');
  private readonly renameButton = viewChild<ElementRef<HTMLElement>>('renameButton');
  private focusAfterRender: 'field' | 'button' | null = null;

  constructor() {
    effect(() => this.page.showSubject(this.name()));
    inject(DestroyRef).onDestroy(() => this.page.showSubject(null));
    effect(() => {
      const field = this.field()?.nativeElement;
      const button = this.renameButton()?.nativeElement;
      if (this.focusAfterRender === 'field' && field) {
        this.focusAfterRender = null;
        field.focus();
        field.select();
      } else if (this.focusAfterRender === 'button' && button) {
        this.focusAfterRender = null;
        button.focus();
      }
    });
  }

  protected edit(): void {
    this.draft.set(this.saved() ?? '');
    this.error.set(null);
    this.focusAfterRender = 'field';
    this.editing.set(true);
  }

  protected cancel(): void {
    this.focusAfterRender = 'button';
    this.editing.set(false);
  }

  protected async save(): Promise<void> {
    const text = this.draft().trim();
    if (this.problem() || this.saving()) return;
    this.saving.set(true);
    this.error.set(null);
    try {
      const session = await this.api.rename(this.session().id, text === '' ? null : text);
      this.saved.set(session.title);
      this.cancel();
    } catch (error: unknown) {
      this.error.set(toApiFailure(error));
    } finally {
      this.saving.set(false);
    }
  }
}
