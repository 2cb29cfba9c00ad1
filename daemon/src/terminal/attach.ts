import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import type { Session, SessionEvent } from '../../../contract/api.js';
import {
  DOUBLE_PRESS_MS,
  interpretLine,
  printable,
  promptLabel,
  renderEvent,
  renderPrompt,
  TERMINAL_CLIP,
  type PromptView,
} from '../../../contract/terminal-lines.js';
import { ApiError, CliError, type DaemonClient } from './daemon-client.js';
import { readNdjson } from './ndjson.js';

/** How long a lost stream is retried before the terminal gives up on the daemon. */
const RECONNECT_FOR_MS = 10_000;

export interface AttachOptions {
  /** How many lines of the conversation so far to show first. */
  history: number;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * `relais attach <session>`: follows a conversation live and joins it. It is a client of the same
 * keyed API as the console; leaving never stops the session.
 */
export async function attach(
  client: DaemonClient,
  sessionId: string,
  options: AttachOptions,
): Promise<void> {
  const path = `/api/sessions/${encodeURIComponent(sessionId)}`;
  const session = await client.call<Session>('GET', path).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404)
      throw new CliError(`No session ${sessionId} (relais sessions lists them).`);
    throw error;
  });
  return new Attachment(client, session, options).run();
}

class Attachment {
  private readonly path: string;
  private readonly leaving = new AbortController();
  private readonly tty: boolean;
  private lines: Interface | undefined;
  private state: Session['state'];
  private lastSeq = 0;
  private lastCtrlC = 0;
  private prompts: PromptView[] = [];
  private finish!: (error?: unknown) => void;

  constructor(
    private readonly client: DaemonClient,
    private readonly session: Session,
    private readonly options: AttachOptions,
  ) {
    this.path = `/api/sessions/${encodeURIComponent(session.id)}`;
    this.state = session.state;
    this.tty = Boolean(options.input.isTTY && options.output.isTTY);
  }

  async run(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      this.finish = (error?: unknown) => (error ? reject(error) : resolve());
    });
    this.say(
      printable(
        `Joined ${this.session.title ?? this.session.id} (${this.session.agent}/${this.session.model}, ${this.session.cwd}).`,
      ),
    );
    this.say('Type to send · Ctrl-C interrupts · Ctrl-C twice or Ctrl-D leaves · /help');
    await this.showHistory();
    await this.refreshPrompts();
    // Made only now, and listened to at once: typed lines wait in the input until then.
    this.lines = createInterface({
      input: this.options.input,
      output: this.tty ? this.options.output : undefined,
      terminal: this.tty,
    });
    this.lines.on('line', (line) => void this.onLine(line));
    this.lines.on('SIGINT', () => void this.onCtrlC());
    this.lines.on('close', () => this.leave());
    const onSignal = () => void this.onCtrlC();
    if (!this.tty) process.on('SIGINT', onSignal);
    this.updatePrompt();
    void this.follow();
    try {
      await done;
    } finally {
      process.off('SIGINT', onSignal);
    }
  }

  /** The last lines of the conversation so far, from its newest chunk of events. */
  private async showHistory(): Promise<void> {
    const page = await this.client.call<{ items: SessionEvent[]; last_seq: number }>(
      'GET',
      `${this.path}/events?limit=500&clip=${TERMINAL_CLIP}`,
    );
    const rendered = page.items.flatMap(
      (e) =>
        renderEvent(e.source, e.data as Record<string, unknown>, this.session.agent)?.split('\n') ??
        [],
    );
    for (const line of rendered.slice(-this.options.history)) this.say(line);
    this.lastSeq = page.items.at(-1)?.seq ?? page.last_seq;
  }

  /** The live stream from the last event seen; a lost stream is taken up again where it stopped. */
  private async follow(): Promise<void> {
    let lostSince: number | null = null;
    while (!this.leaving.signal.aborted) {
      try {
        const response = await this.client.fetch(
          `${this.path}/stream?after=${this.lastSeq}&clip=${TERMINAL_CLIP}`,
          {
            signal: this.leaving.signal,
          },
        );
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        lostSince = null;
        for await (const line of readNdjson(response.body)) await this.onStreamLine(line);
        if (this.state === 'ended') return this.end();
      } catch (error: unknown) {
        if (this.leaving.signal.aborted) return;
        lostSince ??= Date.now();
        if (Date.now() - lostSince > RECONNECT_FOR_MS) {
          this.close();
          return this.finish(
            error instanceof CliError ? error : new CliError(`Lost the daemon: ${String(error)}`),
          );
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  private async onStreamLine(line: unknown): Promise<void> {
    const message = line as { type: string; event?: SessionEvent; session?: Session };
    if (message.type === 'session' && message.session) {
      this.state = message.session.state;
      this.updatePrompt();
      return;
    }
    if (message.type !== 'event' || !message.event) return;
    const event = message.event;
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    const data = event.data as Record<string, unknown>;
    const text = renderEvent(event.source, data, this.session.agent);
    if (text) this.say(text);
    const subtype = data['subtype'];
    if (
      event.source === 'relais' &&
      typeof subtype === 'string' &&
      subtype.startsWith('permission_')
    )
      await this.refreshPrompts();
  }

  /** The prompts of this session that wait for a person; new ones are shown with how to answer. */
  private async refreshPrompts(): Promise<void> {
    const { items } = await this.client.call<{ items: PromptView[] }>(
      'GET',
      `/api/permissions?state=pending&session=${encodeURIComponent(this.session.id)}`,
    );
    const known = new Set(this.prompts.map((p) => p.id));
    this.prompts = items;
    for (const prompt of items.filter((p) => !known.has(p.id))) this.say(renderPrompt(prompt));
    this.updatePrompt();
  }

  private async onLine(raw: string): Promise<void> {
    const intent = interpretLine(raw, this.prompts[0]);
    try {
      switch (intent.kind) {
        case 'nothing':
          return;
        case 'leave':
          return this.leave();
        case 'interrupt':
          return await this.interrupt();
        case 'say':
          return this.say(intent.text);
        case 'send':
          return await this.send(intent.text);
        case 'queue':
          return await this.showQueue();
        case 'answer':
          await this.client.call(
            'POST',
            `/api/permissions/${encodeURIComponent(intent.prompt.id)}/decision`,
            intent.answer,
          );
          this.prompts = this.prompts.filter((p) => p.id !== intent.prompt.id);
          return this.updatePrompt();
      }
    } catch (error: unknown) {
      this.say(`! ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      if (!this.leaving.signal.aborted) this.lines?.prompt();
    }
  }

  private async showQueue(): Promise<void> {
    const { items } = await this.client.call<{ items: { text: string }[] }>(
      'GET',
      `${this.path}/queue`,
    );
    this.say(
      items.length
        ? printable(items.map((e, i) => `${i + 1}. ${e.text}`).join('\n'))
        : '(queue empty)',
    );
  }

  private async send(text: string): Promise<void> {
    const sent = await this.client.call('POST', `${this.path}/messages`, { text });
    if (sent['delivery'] === 'queued') this.say('(will be sent when the agent is free)');
  }

  private async interrupt(): Promise<void> {
    try {
      await this.client.call('POST', `${this.path}/interrupt`);
      this.say('Interrupting the turn… (Ctrl-C again to leave)');
    } catch (error: unknown) {
      if (error instanceof ApiError && error.status === 409)
        this.say('No turn is running. (Ctrl-C again or Ctrl-D to leave; the session goes on)');
      else throw error;
    }
  }

  private async onCtrlC(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCtrlC < DOUBLE_PRESS_MS) return this.leave();
    this.lastCtrlC = now;
    if (this.tty) this.lines?.write(null, { ctrl: true, name: 'u' }); // Clears the typed line.
    await this.interrupt().catch((error: unknown) => this.say(`! ${String(error)}`));
  }

  private updatePrompt(): void {
    if (!this.lines) return;
    this.lines.setPrompt(promptLabel(this.state, this.prompts[0]));
    if (this.tty && !this.leaving.signal.aborted) this.lines.prompt(true);
  }

  /** Prints above the line being typed, then draws that line again. */
  private say(text: string): void {
    if (!this.tty || !this.lines) {
      this.options.output.write(`${text}\n`);
      return;
    }
    clearLine(this.options.output, 0);
    cursorTo(this.options.output, 0);
    this.options.output.write(`${text}\n`);
    if (!this.leaving.signal.aborted) this.lines.prompt(true);
  }

  private close(): void {
    if (this.leaving.signal.aborted) return;
    this.leaving.abort();
    this.lines?.close();
  }

  private leave(): void {
    if (this.leaving.signal.aborted) return;
    this.close();
    this.options.output.write('\nLeft the conversation; the session goes on.\n');
    this.finish();
  }

  private end(): void {
    this.close();
    this.options.output.write('\nThe session has ended.\n');
    this.finish();
  }
}
