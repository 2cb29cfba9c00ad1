// Over 400 lines (439): the page wires the store to the DOM (keys, the first paint's hand-over, the
// rows' element counts fed back to the window budget); its scrolling already lives in
// conversation-scroll.ts, its find bar's in find/page-find.ts, and what is left shares the page's
// signals.
import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  Injector,
  afterNextRender,
  afterRenderEffect,
  computed,
  effect,
  inject,
  input,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { Navigator } from '../core/routing/navigator';
import { PageLink } from '../core/routing/page-link';
import { toApiFailure } from '../core/api-error';
import { PaletteRegistry } from '../palette/palette-registry';
import { PromptList } from '../permissions/prompt-list';
import { SessionsApi } from '../sessions/sessions-api';
import { Now } from '../shared/now';
import { StateChip } from '../shared/state-chip';
import { countdown } from '../shared/time-format';
import { modeText } from '../shared/mode-label';
import { Session } from '../../../contract/api';
import { Composer } from './composer/composer';
import { extendOutcome } from './extend-outcome';
import { conversationCommands } from './conversation-commands';
import { ConversationStore } from './conversation-store';
import { ConversationScroll } from './conversation-scroll';
import { QueuePanel } from './composer/queue-panel';
import type { ResumeData } from './resume-dialog';
import { SteeringPanel } from './composer/steering-panel';
import { TimelineView } from './timeline/timeline-view';
import { SessionTitleView } from '../sessions/session-title';
import { dismissFirstPaint, firstPaintShown } from '../../first-paint/handoff';
import { registerPageCommands } from '../palette/page-commands';
import { TerminalPanel } from '../terminal/terminal-panel';
import { isTyping } from '../shared/is-typing';
import { CLOSE, OPEN, markedParts } from '../shared/marked-text';
import { FindBar } from './find/find-bar';
import { PageFind } from './find/page-find';

const EXTEND_SECONDS = 1800;

/** The component's words, in the console's language. */
const TEXT = {
  sessions: $localize`← Sessions`,
  session: $localize`Session`,
  model: (agent: unknown, model: unknown) => $localize`${agent}:agent: · model ${model}:model: ·`,
  importedStartedBeforeRelais: $localize`imported, started before Relais ·`,
  everyCommandRunsConfined: $localize`Every command runs confined by the operating system`,
  isolated: $localize`isolated`,
  startedWithRelaisIsolation: $localize`Started with RELAIS_ISOLATION=off: commands run unconfined`,
  unconfined: $localize`unconfined`,
  left: (left: unknown) => $localize`· ${left}:left: left`,
  resuming: $localize`Resuming…`,
  resume: $localize`Resume`,
  interrupt: $localize`Interrupt`,
  extend30Min: $localize`Extend 30 min`,
  stopThisSession: $localize`Stop this session?`,
  stopTheAgentAnd: $localize`Stop the agent and end the session?`,
  keepRunning: $localize`Keep running`,
  stopSession: $localize`Stop session`,
  stop: $localize`Stop…`,
  terminal: $localize`Terminal`,
  hidePanels: $localize`Hide panels`,
  steeringQueue: $localize`Steering & queue`,
  conversation: $localize`Conversation`,
  loadingTheConversation: $localize`Loading the conversation…`,
  retry: $localize`Retry`,
  loadingEarlierSteps: $localize`Loading earlier steps…`,
  scrollUpForEarlier: $localize`Scroll up for earlier steps`,
  goToTheStart: $localize`Go to the start ↑`,
  startOfTheConversation: $localize`Start of the conversation`,
  loadingLaterSteps: $localize`Loading later steps…`,
  laterStepsBelow: $localize`Later steps below`,
  jumpToLatest: $localize`Jump to latest ↓`,
  waitingForYourAnswer: $localize`Waiting for your answer`,
  promptsOfThisSession: $localize`Prompts of this session`,
  promptCardFailed: markedParts(
    $localize`A prompt is waiting, but its card could not load (was Relais updated?). Reload the page, or answer it from the ${OPEN}:start_link:inbox${CLOSE}:close_link:.`,
  ),
  readOnlyNote: markedParts(
    $localize`Read-only: this conversation was read from the subscription's own transcripts (started before or outside Relais). ${OPEN}:start_bold:Resume${CLOSE}:close_bold: continues it in a live Relais session, under the permission engine.`,
  ),
  endedNote: markedParts(
    $localize`This session has ended. ${OPEN}:start_bold:Resume${CLOSE}:close_bold: continues its conversation in a new session, in the same folder, model and mode.`,
  ),
  loadingTheTerminal: $localize`Loading the terminal…`,
  steeringAndQueue: $localize`Steering and queue`,
  theQueueAndSteering: $localize`The queue and steering panels could not load (was Relais updated?). Reload the page.`,
};

/** A conversation, full screen: bounded window of steps, live tail, prompts, composer, panels. */
@Component({
  selector: 'app-conversation-page',
  imports: [
    SessionTitleView,
    PageLink,
    MatButtonModule,
    StateChip,
    TimelineView,
    PromptList,
    Composer,
    QueuePanel,
    SteeringPanel,
    TerminalPanel,
    FindBar,
  ],
  providers: [ConversationStore],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './conversation-page.html',
  styleUrl: './conversation-page.scss',
})
export class ConversationPage {
  protected readonly t = TEXT;
  protected readonly store = inject(ConversationStore);
  private readonly api = inject(SessionsApi);
  private readonly now = inject(Now);
  private readonly injector = inject(Injector);
  private readonly paletteRegistry = inject(PaletteRegistry);
  private readonly navigator = inject(Navigator);
  private readonly scroller = viewChild<ElementRef<HTMLElement>>('scroller');
  private readonly spaceBefore = viewChild<ElementRef<HTMLElement>>('spaceBefore');
  private readonly spaceAfter = viewChild<ElementRef<HTMLElement>>('spaceAfter');
  /** The log's scrolling: the room around the window, chunks beside it, drags into the room. */
  private readonly scroll = new ConversationScroll(this.store, this.injector, {
    scroller: () => this.scroller()?.nativeElement,
    spaces: () => {
      const [before, after] = [this.spaceBefore(), this.spaceAfter()];
      return before && after ? { before: before.nativeElement, after: after.nativeElement } : null;
    },
    toStart: () => this.toStart(false),
    toTail: () => this.toTail(),
  });

  /** The page's find bar (Ctrl+F): the whole conversation, drawn or not. */
  protected readonly find = new PageFind({
    bar: () => this.findBar(),
    scroller: () => this.scroller()?.nativeElement,
    items: () => this.store.timeline(),
    injector: this.injector,
    destroyRef: inject(DestroyRef),
  });
  private readonly findBar = viewChild(FindBar);

  readonly id = input.required<string>();
  protected readonly sidePanel = signal(typeof window === 'undefined' || window.innerWidth > 1000);
  protected readonly actionError = signal<string | null>(null);
  /** What the last Extend or Stop did, said aloud (role=status). */
  protected readonly actionStatus = signal('');
  protected readonly confirmingStop = signal(false);
  protected readonly resuming = signal(false);
  /** Read from the subscription's transcripts: read-only until resumed. */
  protected readonly imported = computed(() => this.store.session()?.origin === 'imported');
  /** Ended with a conversation the agent can take up again: imported, or a Relais session that ended. */
  protected readonly resumable = computed(() => {
    const session = this.store.session();
    return session?.state === 'ended' && !!session.agent_session_id;
  });
  protected readonly highlighted = signal<number | null>(null);
  /** The terminal panel (xterm.js, loaded the first time it opens). */
  protected readonly terminalOpen = signal(false);
  /** By the minute, with every other minute text of the page (Now.minute). */
  protected readonly timeLeft = computed(() => {
    const session = this.store.session();
    if (!session || session.state === 'ended') return null;
    return countdown(Date.parse(session.deadline_at) - this.now.minute());
  });
  protected readonly modeText = computed(() => {
    const session = this.store.session();
    return session ? modeText(session.permission_mode) : '';
  });
  protected readonly pendingToolIds = computed(
    () => new Set(this.store.pending().flatMap((p) => (p.tool_use_id ? [p.tool_use_id] : []))),
  );
  protected readonly turnBySeq = computed(
    () => new Map(this.store.index().turns.map((t) => [t.seq, t.turn] as const)),
  );

  constructor() {
    effect(() => {
      const id = this.id();
      untracked(() => this.openSoon(id));
    });
    const commands = conversationCommands(this.store, (seq) => void this.jumpTo(seq), {
      interrupt: () => void this.interrupt(),
      stop: () => this.askStop(),
      extend: () => void this.extend(),
      tail: () => void this.toTail(),
      start: () => void this.toStart(),
      resume: () => void this.resume(),
      find: () => this.find.show(),
    });
    inject(DestroyRef).onDestroy(this.paletteRegistry.register(commands));
    registerPageCommands(() => [
      {
        id: 'conv-terminal',
        group: $localize`Conversation`,
        label: this.terminalOpen() ? $localize`Go to the terminal` : $localize`Open the terminal`,
        keywords: 'xterm console shell attach type',
        run: () => this.openTerminal(),
      },
      ...(this.terminalOpen()
        ? [
            {
              id: 'conv-terminal-close',
              group: $localize`Conversation`,
              label: $localize`Close the terminal`,
              keywords: 'xterm console shell leave',
              run: () => this.closeTerminal(),
            },
          ]
        : []),
    ]);
    afterRenderEffect({
      write: () => {
        this.store.timeline();
        const range = this.store.scrollRange();
        if (this.store.loading()) return;
        const element = this.scroller()?.nativeElement;
        const following = untracked(() => this.store.following());
        this.scroll.fit(range, following);
        if (element && following) element.scrollTop = element.scrollHeight;
        // While the first chunk is added a slice a task, the first paint (over the page) stays
        // until the console's rows fill the log (the rows: the room sized for the rest of the
        // conversation fills it from the start), and nothing is read before them.
        const filling = this.store.filling();
        if (!filling || !element || !this.scroll.rowsShort()) dismissFirstPaint();
        if (!element) return;
        this.noteDrawnRows(element);
        if (!filling) this.scroll.settle(following);
      },
    });
  }

  protected onScroll(): void {
    this.scroll.onScroll();
  }

  /** Goes to event `seq`; `found`: the text the find bar found in it (its row is marked). */
  protected async jumpTo(seq: number, found?: string): Promise<void> {
    this.store.following.set(false);
    if (!(await this.store.jumpTo(seq))) return;
    afterNextRender(
      () => {
        const element = this.scroller()?.nativeElement;
        const steps = element ? [...element.querySelectorAll<HTMLElement>('[data-seq]')] : [];
        const target =
          (found !== undefined && element && this.find.stepHolding(element, seq)) ||
          (steps.find((step) => Number(step.dataset['seq']) >= seq) ?? steps.at(-1));
        if (!target) return;
        target.scrollIntoView({ block: 'start' });
        target.focus({ preventScroll: true });
        this.highlighted.set(seq);
        if (found !== undefined) this.find.mark(target, found);
      },
      { injector: this.injector },
    );
  }

  protected toggleTerminal(): void {
    if (this.terminalOpen()) this.closeTerminal();
    else this.openTerminal();
  }

  /** Opens the terminal (or goes back into it): the keyboard moves into it. */
  protected openTerminal(): void {
    if (this.terminalOpen()) {
      // Not through a query of the panel: that would load xterm.js with the page.
      document.querySelector<HTMLElement>('#terminal-region .xterm-helper-textarea')?.focus();
      return;
    }
    this.terminalOpen.set(true);
  }

  /** Leaving the terminal closes it; the session goes on. The focus returns to its button. */
  protected closeTerminal(): void {
    this.terminalOpen.set(false);
    this.focusAfterRender('terminal-toggle');
  }

  /** Escape inside the terminal: back to the page, the terminal stays open. */
  protected leaveTerminal(): void {
    document.getElementById('terminal-toggle')?.focus();
  }

  /** After the last prompt is answered (or a queue entry deleted), typing goes on here. */
  protected focusComposer(): void {
    document.getElementById('composer-text')?.focus();
  }

  /** Home and End in the conversation: its first step and its latest, however far they are. */
  protected onKeydown(event: KeyboardEvent): void {
    if (event.altKey || event.shiftKey || event.metaKey || isTyping(event.target)) return;
    if (event.key === 'Home' && this.store.bounds().hasOlder) {
      event.preventDefault();
      void this.toStart();
    } else if (event.key === 'End' && (this.store.bounds().hasNewer || !this.store.following())) {
      event.preventDefault();
      void this.toTail();
    }
  }

  /** The conversation's first chunk, read at once instead of scrolled through. */
  protected async toStart(focus = true): Promise<void> {
    this.scroll.jumped();
    // Overtaken (End pressed before the first chunk came), failed, or still opening: nothing moves.
    if (!(await this.store.jumpToStart())) return;
    afterNextRender(
      () => {
        const element = this.scroller()?.nativeElement;
        if (!element) return;
        element.scrollTop = 0;
        // The button that asked is gone with the earlier steps: the keyboard stays in the log.
        if (focus && !element.contains(document.activeElement))
          element.focus({ preventScroll: true });
      },
      { injector: this.injector },
    );
  }

  protected async toTail(): Promise<void> {
    if (!(await this.store.jumpToTail())) return;
    const element = this.scroller()?.nativeElement;
    if (element) element.scrollTop = element.scrollHeight;
  }

  protected async interrupt(): Promise<void> {
    await this.act(() => this.api.interrupt(this.id()));
  }

  /** Stop ends the agent for good: it asks first, with "Keep running" where Stop was. */
  protected askStop(): void {
    this.confirmingStop.set(true);
    this.focusAfterRender('stop-cancel');
  }

  protected cancelStop(): void {
    this.confirmingStop.set(false);
    this.focusAfterRender('stop-button');
  }

  protected async stop(): Promise<void> {
    this.confirmingStop.set(false);
    if (await this.act(() => this.api.stop(this.id())))
      this.actionStatus.set($localize`Stopping the session…`);
    this.focusAfterRender('composer-text');
  }

  /**
   * A live session continuing this conversation (imported, or of an ended session); the page moves
   * to it. Asked first: the folder, the model and the mode are shown, and the mode chosen.
   */
  protected async resume(): Promise<void> {
    const session = this.store.session();
    if (!session) return;
    const data: ResumeData = {
      cwd: session.cwd,
      model: session.model,
      mode: session.permission_mode,
      imported: session.origin === 'imported',
    };
    const { askResume } = await import('./resume-dialog');
    const choice = await askResume(this.injector, data);
    if (!choice) return;
    this.actionError.set(null);
    this.resuming.set(true);
    try {
      const session = await this.api.resume(this.id(), choice);
      this.actionStatus.set($localize`Resumed in a new live session.`);
      await this.navigator.navigate(['/sessions', session.id]);
    } catch (error: unknown) {
      this.actionError.set(toApiFailure(error).message);
    } finally {
      this.resuming.set(false);
    }
  }

  protected async extend(): Promise<void> {
    const before = this.store.session();
    const after = await this.act(() => this.api.extend(this.id(), EXTEND_SECONDS));
    if (before && after) this.actionStatus.set(extendOutcome(before, after, EXTEND_SECONDS));
  }

  private focusAfterRender(id: string): void {
    afterNextRender(() => document.getElementById(id)?.focus(), { injector: this.injector });
  }

  private async act(call: () => ReturnType<SessionsApi['stop']>): Promise<Session | null> {
    this.actionError.set(null);
    this.actionStatus.set('');
    try {
      const session = await call();
      this.store.updateSession(session);
      return session;
    } catch (error: unknown) {
      this.actionError.set(toApiFailure(error).message);
      return null;
    }
  }

  /**
   * Opens the conversation at once; under the first paint (over the page until the console's rows
   * are drawn), in a task after the page's own first render: together they held the main thread
   * 80-90 ms, and nobody sees the page without its rows meanwhile.
   */
  private openSoon(id: string): void {
    if (!firstPaintShown()) return void this.open(id);
    setTimeout(() => {
      if (this.id() === id) void this.open(id, true);
    });
  }

  private async open(id: string, inSteps = false): Promise<void> {
    this.scroll.reset();
    await this.store.open(id, { inSteps });
    // The index (turns, tools) is for navigation only: read it once the tail is on screen.
    afterNextRender(() => void setTimeout(() => void this.store.ensureIndex()), {
      injector: this.injector,
    });
  }

  /** Counts the elements each drawn row holds, for the window's element budget. */
  private noteDrawnRows(scroller: HTMLElement): void {
    const elements = new Map<string, number>();
    for (const step of scroller.querySelectorAll<HTMLElement>('[data-key]'))
      elements.set(step.dataset['key']!, step.getElementsByTagName('*').length + 1);
    untracked(() => this.store.noteDrawn(elements, document.getElementsByTagName('*').length));
  }
}
