import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  afterNextRender,
  computed,
  inject,
  input,
  output,
  signal,
} from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { PageLink } from '../core/routing/page-link';
import { PermissionRequest, Session } from '../../../contract/api';
import { ApiFailure } from '../core/api-error';
import { Timestamp } from '../shared/timestamp';
import { modeLabel } from '../shared/mode-label';
import { CLOSE, OPEN, markedParts, unmarked } from '../shared/marked-text';
import { ARM_DELAY_MS, Arming } from './arming';
import { earlyPromptInViewSince } from '../../first-paint/handoff';
import { PermissionActions } from './permission-actions';
import { destinationOf, questionsOf, subjectOf } from './permission-view';

/** The component's words, in the console's language. */
const TEXT = {
  questionFromTheAgent: $localize`Question from the agent`,
  asksPermission: (tool: unknown) => {
    const name = unmarked(tool);
    return markedParts(
      $localize`${OPEN}:start_tool:${name}:tool:${CLOSE}:close_tool: asks permission`,
    );
  },
  sessionNamed: (id: unknown) => $localize`Session ${id}:id:`,
  subscriptionMode: (model: unknown, subscription: unknown, mode: unknown) =>
    $localize`· ${model}:model: · subscription ${subscription}:subscription: · ${mode}:mode: mode`,
  launchedByTheKey: (key: unknown) => {
    const name = unmarked(key);
    return markedParts(
      $localize`launched by the key ${OPEN}:start_bold:${name}:key:${CLOSE}:close_bold:`,
    );
  },
  answer: $localize`Answer`,
  declineToAnswer: $localize`Decline to answer`,
  input: $localize`Input`,
  outsideTheTrustedFolders: $localize`Outside the trusted folders:`,
  allowOnce: $localize`Allow once`,
  allowForThisSession: $localize`Allow for this session`,
  alwaysForThisHost: $localize`Always for this host`,
  forEverySessionFrom: (destination: unknown) =>
    $localize`${destination}:destination: for every session from now on; the Rules page lists and removes it.`,
  reasonForDenyingOptional: $localize`Reason for denying (optional)`,
  reasonOptional: $localize`Reason (optional)`,
  deny: $localize`Deny`,
};

/**
 * One pending request; every button answers this request's id, whatever else is pending. The
 * buttons arm only after the card has been in view for a moment (see Arming), and stay focusable
 * meanwhile (aria-disabled), so neither a double click nor focus falling to the page can slip by.
 */
@Component({
  selector: 'app-permission-card',
  imports: [FormsModule, MatButtonModule, PageLink, Timestamp],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './permission-card.html',
  styleUrl: './permission-card.scss',
  host: { '[attr.data-permission-id]': 'request().id' },
})
export class PermissionCard {
  protected readonly t = TEXT;
  private readonly actions = inject(PermissionActions);
  readonly request = input.required<PermissionRequest>();
  /** Shows a link to the session (in the inbox; not inside the conversation itself). */
  readonly showSession = input(false);
  /** The session asking, when known: its folder, model, subscription and title are shown. */
  readonly session = input<Session | null>(null);
  /**
   * Emitted as the answer leaves, before the daemon replies: the live stream may take the card
   * away before the reply comes back, and a destroyed card can no longer tell its list anything.
   */
  readonly answering = output<void>();

  protected readonly armDelayMs = ARM_DELAY_MS;
  private readonly arming = new Arming();
  protected readonly armed = signal(false);
  protected readonly sessionFacts = computed(() => {
    const session = this.session();
    if (!session) return null;
    const title = (session as Session & { title?: string | null }).title ?? null;
    return {
      title: title?.trim() || null,
      folder: session.cwd.split(/[\\/]/).filter(Boolean).at(-1) ?? session.cwd,
      cwd: session.cwd,
      model: session.model,
      subscription: session.subscription_id,
      mode: modeLabel(session.permission_mode),
      caller: session.caller?.name ?? null,
    };
  });

  protected readonly subject = computed(() => subjectOf(this.request()));
  /** A command's connection: it alone can be allowed always (its host and port, every session). */
  protected readonly destination = computed(() => destinationOf(this.request()));
  protected readonly questions = computed(() => questionsOf(this.request()));
  protected readonly createdMs = computed(() => Date.parse(this.request().created_at));
  protected readonly inputJson = computed(() => JSON.stringify(this.request().input, null, 2));
  protected readonly reason = signal('');
  protected readonly answers = signal<Record<string, string[]>>({});
  protected readonly busy = signal(false);
  protected readonly failure = signal<ApiFailure | null>(null);
  protected readonly allAnswered = computed(() =>
    this.questions().every((q) => (this.answers()[q.question] ?? []).length > 0),
  );

  private visible = false;
  private observed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    const host = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
    const destroyRef = inject(DestroyRef);
    afterNextRender(() => {
      if (typeof IntersectionObserver === 'undefined') {
        this.seen(true);
        return;
      }
      const observer = new IntersectionObserver(
        (entries) => this.seen(entries.some((entry) => entry.isIntersecting)),
        { threshold: 0.5 },
      );
      observer.observe(host);
      destroyRef.onDestroy(() => observer.disconnect());
    });
    destroyRef.onDestroy(() => clearTimeout(this.timer));
  }

  /** Another prompt near this one was just answered: wait again before answering this one. */
  rearm(): void {
    this.arming.rearm(performance.now(), this.visible);
    this.armed.set(false);
    this.tick();
  }

  private seen(visible: boolean): void {
    this.visible = visible;
    // Shown by the first paint before the console started, in view since and in view here from
    // the start: the delay counts from there, once (out of view and back, it starts again).
    const early = this.observed ? null : earlyPromptInViewSince(this.request().id);
    this.observed = true;
    if (visible) this.arming.shown(Math.min(early ?? Infinity, performance.now()));
    else this.arming.hidden();
    this.tick();
  }

  private tick(): void {
    clearTimeout(this.timer);
    const now = performance.now();
    if (this.arming.check(now)) {
      this.armed.set(true);
      return;
    }
    const remaining = this.arming.remaining(now);
    if (remaining !== null) this.timer = setTimeout(() => this.tick(), remaining + 5);
  }

  protected toggleAnswer(question: string, label: string, multi: boolean, checked: boolean): void {
    this.answers.update((current) => {
      const previous = current[question] ?? [];
      const next = multi
        ? checked
          ? [...previous, label]
          : previous.filter((l) => l !== label)
        : [label];
      return { ...current, [question]: next };
    });
  }

  protected allow(scope: 'once' | 'session' | 'always'): void {
    void this.send({ decision: 'allow', scope });
  }

  protected deny(): void {
    const message = this.reason().trim();
    void this.send({ decision: 'deny', scope: 'once', ...(message ? { message } : {}) });
  }

  protected answer(): void {
    const answers: Record<string, string> = {};
    for (const [question, labels] of Object.entries(this.answers()))
      answers[question] = labels.join(', ');
    void this.send({ decision: 'allow', scope: 'once', answers });
  }

  private async send(body: Parameters<PermissionActions['decide']>[1]): Promise<void> {
    // The buttons stay focusable while unarmed or busy (aria-disabled): refuse here.
    if (!this.armed() || this.busy()) return;
    this.busy.set(true);
    this.answering.emit();
    const failure = await this.actions.decide(this.request().id, body);
    this.failure.set(failure);
    this.busy.set(false);
  }
}
