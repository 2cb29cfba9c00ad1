import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  ViewEncapsulation,
  afterNextRender,
  effect,
  inject,
  input,
  output,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import type { Terminal } from '@xterm/xterm';
import type { Subscription as RxSubscription } from 'rxjs';
import {
  PermissionRequest,
  Session,
  SessionStreamLine,
  type SessionEvent,
} from '../../../contract/api';
import {
  DOUBLE_PRESS_MS,
  interpretLine,
  printable,
  promptLabel,
  renderEvent,
  renderPrompt,
  TERMINAL_CLIP,
} from '../../../contract/terminal-lines';
import { ApiKey } from '../core/api-key';
import { toApiFailure } from '../core/api-error';
import { ndjsonStream } from '../core/live-stream';
import { Theme } from '../core/theme';
import { PermissionsApi } from '../permissions/permissions-api';
import { SessionsApi } from '../sessions/sessions-api';
import { CLEAR_LINE, LineEditor } from './line-editor';

/** The component's words, in the console's language. */
const TEXT = {
  terminal: $localize`Terminal`,
  typeToSendCtrl: $localize`Type to send · Ctrl-C interrupts · Ctrl-C twice or Ctrl-D closes · Esc returns to the page`,
  closeTerminal: $localize`Close terminal`,
};

/** Lines of the conversation so far shown when the terminal opens. */
const HISTORY_LINES = 30;

const LIGHT = { background: '#f7f7fa', foreground: '#1b1b1f', cursor: '#1b1b1f' };
const DARK = { background: '#121316', foreground: '#e4e2e6', cursor: '#e4e2e6' };

/**
 * The conversation in a terminal, in the browser: what `relais attach` does in a shell, through
 * the same keyed API and live stream. Not a system shell and not a second conversation: lines
 * typed here are messages (or answers to the waiting prompt) of this session.
 */
@Component({
  selector: 'app-terminal-panel',
  imports: [MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  // xterm.js styles its own elements, created outside Angular's view.
  encapsulation: ViewEncapsulation.None,
  styleUrls: ['../../../node_modules/@xterm/xterm/css/xterm.css', './terminal-panel.scss'],
  template: `
    <section class="terminal-panel" aria-labelledby="terminal-title">
      <header class="terminal-head">
        <h2 id="terminal-title">{{ t.terminal }}</h2>
        <p id="terminal-keys" class="terminal-keys">
          {{ t.typeToSendCtrl }}
        </p>
        <button mat-button type="button" (click)="leave()">{{ t.closeTerminal }}</button>
      </header>
      @if (failure(); as failure) {
        <p class="terminal-failure" role="alert">{{ failure }}</p>
      }
      <div #host class="terminal-host" aria-describedby="terminal-keys"></div>
    </section>
  `,
})
export class TerminalPanel {
  protected readonly t = TEXT;
  private readonly sessionsApi = inject(SessionsApi);
  private readonly permissionsApi = inject(PermissionsApi);
  private readonly apiKey = inject(ApiKey);
  private readonly theme = inject(Theme);
  private readonly host = viewChild.required<ElementRef<HTMLElement>>('host');

  readonly session = input.required<Session>();
  readonly pending = input.required<PermissionRequest[]>();
  /** The person left the terminal (Ctrl-C twice, Ctrl-D, /quit, Close): the page closes it. */
  readonly closed = output<void>();
  /** Escape: the focus goes back to the page, the terminal stays open. */
  readonly escaped = output<void>();

  protected readonly failure = signal<string | null>(null);
  private terminal: Terminal | null = null;
  private readonly editor = new LineEditor();
  private readonly shownPrompts = new Set<string>();
  private stream: RxSubscription | null = null;
  private lastCtrlC = 0;
  private label = '';

  constructor() {
    const destroyRef = inject(DestroyRef);
    let resize: ResizeObserver | null = null;
    destroyRef.onDestroy(() => {
      this.stream?.unsubscribe();
      resize?.disconnect();
      this.terminal?.dispose();
    });
    afterNextRender(() => {
      void this.start(destroyRef).then((fit) => {
        if (!fit) return;
        resize = new ResizeObserver(() => fit());
        resize.observe(this.host().nativeElement);
      });
    });
    effect(() => {
      const pending = this.pending().filter((p) => p.session_id === this.session().id);
      const state = this.session().state;
      untracked(() => this.onPrompts(pending, state));
    });
    effect(() => {
      this.theme.choice();
      untracked(() => this.applyColours());
    });
    // The system's light or dark setting can change while the page is open.
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    const onMedia = () => this.applyColours();
    media?.addEventListener('change', onMedia);
    destroyRef.onDestroy(() => media?.removeEventListener('change', onMedia));
  }

  private applyColours(): void {
    if (!this.terminal) return; // Coloured when made, once the view is there.
    const colours = this.theme.isDark() ? DARK : LIGHT;
    this.terminal.options.theme = colours;
    this.host().nativeElement.style.backgroundColor = colours.background;
  }

  /** Moves the keyboard into the terminal. */
  focus(): void {
    this.terminal?.focus();
  }

  protected leave(): void {
    this.closed.emit();
  }

  private async start(destroyRef: DestroyRef): Promise<(() => void) | null> {
    const [{ Terminal }, { FitAddon }] = await Promise.all([
      import('@xterm/xterm'),
      import('@xterm/addon-fit'),
    ]);
    if (destroyRef.destroyed) return null;
    const terminal = new Terminal({
      rows: 12,
      convertEol: true,
      cursorBlink: true,
      screenReaderMode: true,
      fontSize: 13,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      theme: this.theme.isDark() ? DARK : LIGHT,
    });
    const fitAddon = new FitAddon();
    terminal.loadAddon(fitAddon);
    terminal.open(this.host().nativeElement);
    terminal.textarea?.setAttribute('aria-label', 'Terminal: message to the agent');
    const fit = () => {
      if (this.host().nativeElement.offsetWidth > 0) fitAddon.fit();
    };
    fit();
    // xterm.js keeps Tab for itself; Escape is the way out, back to the page.
    terminal.attachCustomKeyEventHandler((event) => {
      if (event.key !== 'Escape') return true;
      if (event.type === 'keydown') this.escaped.emit();
      return false;
    });
    terminal.onData((data) => this.onKeys(data));
    this.terminal = terminal;
    this.applyColours();
    terminal.focus();
    await this.showHistory();
    this.onPrompts(this.pending(), this.session().state);
    return fit;
  }

  private async showHistory(): Promise<void> {
    const id = this.session().id;
    let after = 0;
    try {
      const page = await this.sessionsApi.events(id, { limit: 120, clip: TERMINAL_CLIP });
      const lines = page.items.flatMap(
        (e) =>
          renderEvent(e.source, e.data as Record<string, unknown>, this.session().agent)?.split(
            '\n',
          ) ?? [],
      );
      for (const line of lines.slice(-HISTORY_LINES)) this.say(line);
      after = page.items.at(-1)?.seq ?? page.last_seq;
    } catch (error: unknown) {
      this.say(`! ${toApiFailure(error).message}`);
    }
    this.say('Joined. Type to send · Ctrl-C interrupts · Ctrl-C twice or Ctrl-D closes · /help');
    this.follow(id, after);
  }

  private follow(id: string, after: number): void {
    this.stream = ndjsonStream({
      url: (seen) =>
        `/api/sessions/${encodeURIComponent(id)}/stream?after=${seen ?? after}&clip=${TERMINAL_CLIP}`,
      key: () => this.apiKey.key(),
      startAfter: after,
      parse: (raw) => {
        const parsed = SessionStreamLine.safeParse(raw);
        return parsed.success ? parsed.data : null;
      },
      seqOf: (line) => (line.type === 'event' ? line.event.seq : null),
      isLast: (line) => line.type === 'session' && line.session.state === 'ended',
    }).subscribe((message) => {
      if (message.kind === 'line' && message.line.type === 'event')
        this.onEvent(message.line.event);
    });
  }

  private onEvent(event: SessionEvent): void {
    const text = renderEvent(
      event.source,
      event.data as Record<string, unknown>,
      this.session().agent,
    );
    if (text) this.say(text);
  }

  private onPrompts(pending: PermissionRequest[], state: Session['state']): void {
    if (!this.terminal) return;
    for (const prompt of pending) {
      if (this.shownPrompts.has(prompt.id)) continue;
      this.shownPrompts.add(prompt.id);
      this.say(renderPrompt(prompt));
    }
    this.setLabel(promptLabel(state, pending[0]));
  }

  private onKeys(data: string): void {
    const terminal = this.terminal;
    if (!terminal) return;
    for (const action of this.editor.feed(data)) {
      switch (action.kind) {
        case 'echo':
          terminal.write(action.text);
          break;
        case 'line':
          terminal.write('\r\n');
          void this.onLine(action.text);
          break;
        case 'ctrl-c':
          void this.onCtrlC();
          break;
        case 'ctrl-d':
          this.leave();
          return;
      }
    }
  }

  private async onLine(line: string): Promise<void> {
    const intent = interpretLine(line, this.pendingHere()[0]);
    const id = this.session().id;
    try {
      switch (intent.kind) {
        case 'nothing':
          break;
        case 'leave':
          return this.leave();
        case 'interrupt':
          await this.interrupt();
          break;
        case 'say':
          this.say(intent.text);
          break;
        case 'send': {
          const sent = await this.sessionsApi.send(id, intent.text);
          if (sent.delivery === 'queued') this.say('(will be sent when the agent is free)');
          break;
        }
        case 'queue': {
          const entries = await this.sessionsApi.queue(id);
          this.say(
            entries.length
              ? printable(entries.map((e, i) => `${i + 1}. ${e.text}`).join('\n'))
              : '(queue empty)',
          );
          break;
        }
        case 'answer':
          await this.permissionsApi.decide(intent.prompt.id, intent.answer);
          break;
      }
    } catch (error: unknown) {
      this.say(`! ${printable(toApiFailure(error).message)}`);
    }
    this.redraw();
  }

  private async onCtrlC(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCtrlC < DOUBLE_PRESS_MS) return this.leave();
    this.lastCtrlC = now;
    this.terminal?.write(`^C\r\n${this.editor.clear(this.label)}`);
    await this.interrupt();
  }

  private async interrupt(): Promise<void> {
    try {
      await this.sessionsApi.interrupt(this.session().id);
      this.say($localize`Interrupting the turn… (Ctrl-C again to close)`);
    } catch (error: unknown) {
      const failure = toApiFailure(error);
      this.say(
        failure.status === 409
          ? $localize`No turn is running. (Ctrl-C again or Ctrl-D to close; the session goes on)`
          : `! ${printable(failure.message)}`,
      );
    }
  }

  private pendingHere(): PermissionRequest[] {
    return this.pending().filter((p) => p.session_id === this.session().id);
  }

  private setLabel(label: string): void {
    if (label === this.label) return;
    this.label = label;
    this.redraw();
  }

  /** Draws the prompt and the line being typed again, on a clean line. */
  private redraw(): void {
    this.terminal?.write(`${CLEAR_LINE}${this.label}${this.editor.current}`);
  }

  /** Prints above the line being typed, then draws that line again. */
  private say(text: string): void {
    this.terminal?.write(`${CLEAR_LINE}${text}\n${this.label}${this.editor.current}`);
  }
}
