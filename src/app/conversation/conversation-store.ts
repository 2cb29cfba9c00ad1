// Over 400 lines: the conversation's window, its opening a slice a task, paging, live following
// and outline index share its signals. The queue, the opening events and the live stream's
// reading live beside it.
import { DestroyRef, Injectable, computed, inject, signal } from '@angular/core';
import { Subscription as RxSubscription } from 'rxjs';
import * as z from 'zod';
import { EventsPage, QueueEntry, Session, SessionEvent, SessionState } from '../../../contract/api';
import { ApiKey } from '../core/api-key';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { fresherSession } from '../core/fresher-session';
import { LiveStore } from '../core/live-store';
import { EventsRange, SessionsApi } from '../sessions/sessions-api';
import {
  ConversationIndex,
  emptyIndex,
  extendIndex,
  indexFromOutline,
  joinOutlines,
  outlineSlices,
} from './timeline/conversation-index';
import { RowTrim, mergeEvents, trimRows, trimWindow, windowBounds } from './timeline/event-window';
import { shareRepeatedOutput } from './timeline/repeated-output';
import { RowCosts } from './timeline/row-cost';
import { ScrollRange } from './timeline/scroll-range';
import { stableRows } from './timeline/stable-rows';
import { buildTimeline } from './timeline/timeline';
import {
  ANCHOR_ROWS,
  EVENT_CLIP,
  FAST_PAGE,
  FIRST_PAGE,
  JUMP_CONTEXT,
  LIVE_FIT_EVERY,
  OPEN_SLICE_ROWS,
  OUTLINE_SLICE,
  PAGE,
  ROWS_MAX,
  SlicePace,
  WINDOW_MAX,
  fastWindowRows,
} from './conversation-paging';
import { ConversationQueue } from './conversation-queue';
import { OpeningEvents } from './opening-events';
import { sessionLines } from './session-lines';
import { onEarlyAnswerChange, promptAnsweredEarly } from '../../first-paint/handoff';
import { afterPaint } from '../shared/after-paint';

export {
  ANCHOR_ROWS,
  FAST_PAGE,
  JUMP_CONTEXT,
  OPEN_SLICE_ROWS,
  OUTLINE_SLICE,
  PAGE,
  ROWS_MAX,
  WINDOW_MAX,
} from './conversation-paging';
const RelaisState = z.object({
  type: z.literal('relais'),
  subtype: z.literal('state'),
  state: SessionState,
});

/**
 * One conversation: a bounded window of events (newest chunk first, earlier chunks on demand),
 * the live stream appended while the window touches the tail, the queue, and a lazily built
 * index of turns and tool calls for the steering panel and the palette.
 */
@Injectable()
export class ConversationStore {
  private readonly api = inject(SessionsApi);
  private readonly live = inject(LiveStore);
  private readonly apiKey = inject(ApiKey);

  private readonly idSignal = signal<string | null>(null);
  private readonly sessionSignal = signal<Session | null>(null);
  private readonly eventsSignal = signal<SessionEvent[]>([]);
  private readonly firstSeq = signal<number | null>(null);
  private readonly lastSeq = signal(0);
  private readonly loadingSignal = signal<'initial' | 'older' | 'newer' | 'jump' | null>('initial');
  private readonly errorSignal = signal<ApiFailure | null>(null);
  private readonly indexSignal = signal<ConversationIndex>(emptyIndex());
  private readonly indexingSignal = signal(false);
  private readonly fillingSignal = signal(false);
  private stream: RxSubscription | null = null;
  private indexWanted = false;
  private liveSinceFit = 0;
  /** The conversation's opening events, read once for whoever needs them (see openingEvents). */
  private readonly opening = new OpeningEvents(this.api);
  /** Bumped whenever the window is replaced (an open, a jump): a page read before is not shown. */
  private windowTurn = 0;
  /** Events fetched before the window but not shown yet: they end just before seq `before`. */
  private older: { before: number; events: SessionEvent[] } | null = null;
  /** How many rows the opening's next slice renders (from what the last one's frame took). */
  private pace = new SlicePace();
  /** The chunk before `older` (or the window), read ahead of the scroll up. */
  private ahead: { id: string; before: number; page: Promise<EventsPage> } | null = null;

  /** True while the person reads the tail: live events append and the view follows. */
  readonly following = signal(true);
  readonly session = this.sessionSignal.asReadonly();
  readonly events = this.eventsSignal.asReadonly();
  readonly loading = this.loadingSignal.asReadonly();
  readonly error = this.errorSignal.asReadonly();
  private readonly queueState = new ConversationQueue(this.api, () => this.idSignal());
  readonly queue = this.queueState.current;
  readonly index = this.indexSignal.asReadonly();
  readonly indexing = this.indexingSignal.asReadonly();
  /** True while the first chunk is still being added above its first rows, a slice a task. */
  readonly filling = this.fillingSignal.asReadonly();
  private readonly keepRows = stableRows();
  /** What rows render, in elements: the window is fitted to the page's element budget too. */
  private readonly costs = new RowCosts();
  /** The session's agent, whose format its lines are read in (a state change rebuilds nothing). */
  private readonly agent = computed(() => this.sessionSignal()?.agent);
  readonly timeline = computed(() =>
    this.keepRows(buildTimeline(this.eventsSignal(), this.agent())),
  );
  /** The events of the window that came with texts cut (see EVENT_CLIP). */
  readonly clipped = computed(
    () => new Set(this.eventsSignal().flatMap((event) => (event.clipped ? [event.seq] : []))),
  );
  readonly bounds = computed(() =>
    windowBounds(this.eventsSignal(), this.firstSeq(), this.lastSeq()),
  );
  /** The whole conversation weighed by its outline, for the scrollbar (see ScrollRange). */
  readonly scrollRange = computed(() => {
    const first = this.firstSeq();
    return first === null ? null : new ScrollRange(this.indexSignal(), first, this.lastSeq());
  });
  /** The seqs the conversation spans, and those the window holds (null while empty). */
  readonly span = computed(() => ({ first: this.firstSeq() ?? 1, last: this.lastSeq() }));
  readonly windowSpan = computed(() => {
    const events = this.eventsSignal();
    return events.length ? { first: events[0]!.seq, last: events.at(-1)!.seq } : null;
  });
  /** This session's prompts, but one the first paint answered: not asked again (first-paint/). */
  readonly pending = computed(() => {
    this.earlyAnswers();
    return this.live
      .pending()
      .filter((p) => p.session_id === this.idSignal() && !promptAnsweredEarly(p.id));
  });
  /** Bumped when the first paint notes or takes back an answer (`promptAnsweredEarly` is no signal). */
  private readonly earlyAnswers = signal(0);

  constructor() {
    const stopListening = onEarlyAnswerChange(() => this.earlyAnswers.update((n) => n + 1));
    inject(DestroyRef).onDestroy(() => {
      stopListening();
      this.stream?.unsubscribe();
    });
  }

  /**
   * Opens conversation `id`. `inSteps` (under the first paint, where nobody sees the page until its
   * rows are there): the page's parts that hang on the session render a frame before the rows, so
   * neither render is one long task.
   */
  async open(id: string, { inSteps = false } = {}): Promise<void> {
    this.stream?.unsubscribe();
    this.windowTurn++;
    this.idSignal.set(id);
    this.eventsSignal.set([]);
    this.costs.forgetRows();
    this.older = null;
    this.fillingSignal.set(false);
    this.ahead = null;
    this.indexSignal.set(emptyIndex());
    this.indexWanted = false;
    this.sessionSignal.set(this.live.session(id) ?? null);
    this.loadingSignal.set('initial');
    this.errorSignal.set(null);
    // Answers already here (read while the app started) are shown now, in the page's first
    // render: awaiting them would paint the page once empty, then again a task later.
    const arrivedSession = this.api.getArrived(id);
    const arrivedPage = this.api.eventsArrived(id, FIRST_PAGE);
    if (arrivedSession && arrivedPage) {
      if (inSteps) {
        const turn = this.windowTurn;
        this.sessionSignal.update((current) => fresherSession(current, arrivedSession));
        await new Promise<void>((painted) => afterPaint(() => painted()));
        if (turn !== this.windowTurn) return;
      }
      this.showFirst(id, arrivedSession, arrivedPage);
      return;
    }
    try {
      const [session, page] = await Promise.all([
        arrivedSession ?? this.api.get(id),
        arrivedPage ?? this.api.events(id, FIRST_PAGE),
      ]);
      if (this.idSignal() === id) this.showFirst(id, session, page);
    } catch (error: unknown) {
      if (this.idSignal() !== id) return;
      this.errorSignal.set(toApiFailure(error));
      this.loadingSignal.set(null);
    }
  }

  private showFirst(id: string, session: Session, page: EventsPage): void {
    this.sessionSignal.update((current) => fresherSession(current, session));
    this.firstSeq.set(page.first_seq);
    this.lastSeq.set(page.last_seq);
    const window = this.fitRows(page.items, { keep: 'end' });
    const first = this.lastRows(window, OPEN_SLICE_ROWS);
    this.eventsSignal.set(first);
    this.following.set(true);
    this.loadingSignal.set(null);
    this.follow(id, page.items.at(-1)?.seq ?? page.last_seq);
    void this.refreshQueue();
    const rest = window.slice(0, window.length - first.length);
    this.pace = new SlicePace();
    if (rest.length)
      this.showRestAfterPaint({ before: first[0]!.seq, events: rest }, this.timeline().length);
  }

  /** The events that make the last `rows` rows of `events`. */
  private lastRows(events: readonly SessionEvent[], rows: number): SessionEvent[] {
    return trimRows(events, rowSeqsOf(events, this.agent()), rows, { keep: 'end' });
  }

  /**
   * The rest of the first chunk, kept as the events before the window (a scroll up meanwhile
   * shows them without a request) and shown above it a slice of rows a task, each after the last
   * was painted and sized from what its frame took (SlicePace), so that no task renders the whole
   * chunk; `added`: the rows the last slice added (the first: the rows of the first render). It
   * stops when a scroll, a jump or another conversation took them or the window first, or the
   * reader left the tail (rows added above the reader would move what they are reading: a scroll
   * up adds them with its anchor).
   */
  private showRestAfterPaint(
    rest: { before: number; events: SessionEvent[] },
    added: number,
  ): void {
    this.older = rest;
    this.fillingSignal.set(true);
    const turn = this.windowTurn;
    afterPaint((frameMs) => {
      const taken = this.older !== rest || turn !== this.windowTurn || this.loadingSignal();
      // The live tail may have trimmed the window's start: the rest would no longer join it.
      if (taken || !this.following() || this.eventsSignal()[0]?.seq !== rest.before)
        return this.fillingSignal.set(false);
      const all = mergeEvents(rest.events, this.eventsSignal());
      if (added) this.pace.note(added, frameMs);
      const before = this.timeline().length;
      const next = this.lastRows(all, before + this.pace.rows());
      if (next.length >= all.length) {
        this.older = null;
        this.fillingSignal.set(false);
        this.eventsSignal.set(this.fitRows(all, { keep: 'end' }));
        return;
      }
      this.eventsSignal.set(next);
      this.showRestAfterPaint(
        { before: next[0]!.seq, events: all.slice(0, all.length - next.length) },
        this.timeline().length - before,
      );
    });
  }

  /**
   * Shows the chunk before the window: from the events already fetched before it, else from a
   * fetch of `size` events (larger when the reader scrolls fast). Only as many as make the rows
   * that fit beside those kept on screen are shown; the rest wait for the next call (a dense
   * conversation scrolls in more steps, not in more requests). The newest events beyond the
   * window are dropped. True when the window changed. `reader` tells, as the chunk is shown, the
   * step the reader is on: its rows (and those above it) stay rather than the window's first ones.
   */
  async loadOlder(size = PAGE, reader?: () => ReaderStep | undefined): Promise<boolean> {
    const id = this.idSignal();
    const first = this.eventsSignal()[0];
    if (!id || !first || this.loadingSignal() || !this.bounds().hasOlder) return false;
    const buffered = this.older?.before === first.seq ? this.older.events : [];
    // A fast reader's window holds more rows, those far from the view drawn as placeholders.
    const rowsMax = size >= FAST_PAGE ? fastWindowRows(this.costs.budget()) : ROWS_MAX;
    const wanted = Math.min(size, this.eventsForRows(rowsMax - ANCHOR_ROWS));
    return this.changeWindow(
      'older',
      async () => {
        if (buffered.length >= wanted) return { fetched: buffered };
        // The chunk read ahead of the scroll joins what is left of the buffer, if it is here.
        const ahead = this.takeAhead(id, buffered[0]?.seq ?? first.seq);
        if (ahead) {
          const page = await ahead;
          return { page: { ...page, items: [...page.items, ...buffered] } };
        }
        if (buffered.length) return { fetched: buffered };
        return { page: await this.chunk(id, { before: first.seq, limit: size }) };
      },
      ({ fetched, page }) => {
        if (page) this.noteBounds(page);
        const events = page?.items ?? fetched ?? [];
        const step = reader?.();
        const held = heldRows(step);
        const shown = Math.min(size, this.eventsForRows(rowsMax - held));
        const merged = mergeEvents(this.eventsSignal(), events.slice(-shown));
        // The events are bounded below the reader's step, never above it (a page past them).
        const toReader = merged.filter((event) => event.seq <= (step?.seq ?? -Infinity)).length;
        const window = this.fitRows(
          trimWindow(merged, Math.max(WINDOW_MAX, shown + PAGE, toReader + PAGE), 'start'),
          { keep: 'start', anchorSeq: first.seq, anchorRows: held, readerSeq: step?.seq },
          rowsMax,
        );
        this.eventsSignal.set(window);
        const start = window[0]?.seq ?? first.seq;
        const rest = events.filter((event) => event.seq < start);
        this.older = rest.length ? { before: start, events: rest } : null;
        // A reader at the very top outran the history: the next chunk is read ahead of them.
        if (size >= FAST_PAGE && rest.length < 2 * wanted)
          this.readAhead(id, rest[0]?.seq ?? start, size);
      },
    );
  }

  /**
   * Reads the chunk before `before` while the person is still reading what is shown, so the next
   * step up does not wait for the daemon (the reader who scrolls fast gets the larger chunk).
   */
  private readAhead(id: string, before: number, size: number): void {
    const firstSeq = this.firstSeq();
    if (firstSeq === null || before <= firstSeq || this.ahead?.before === before) return;
    const page = this.chunk(id, { before, limit: size });
    page.catch(() => undefined); // a failed read ahead is reported by the step that takes it
    this.ahead = { id, before, page };
  }

  /** The chunk read ahead before `before` in conversation `id`, taken once. */
  private takeAhead(id: string, before: number): Promise<EventsPage> | null {
    const ahead = this.ahead;
    if (!ahead || ahead.id !== id || ahead.before !== before) return null;
    this.ahead = null;
    return ahead.page;
  }

  /**
   * Fetches the chunk after the window (when the person scrolled back down); true when shown.
   * `reader` tells, as the chunk is shown, the step the reader is on: its rows stay on screen.
   */
  async loadNewer(reader?: () => ReaderStep | undefined): Promise<boolean> {
    const id = this.idSignal();
    const last = this.eventsSignal().at(-1);
    if (!id || !last || this.loadingSignal() || !this.bounds().hasNewer) return false;
    const limit = Math.min(PAGE, this.eventsForRows(ROWS_MAX - ANCHOR_ROWS));
    return this.changeWindow(
      'newer',
      () => this.chunk(id, { after: last.seq, limit }),
      (page) => {
        this.noteBounds(page);
        const step = reader?.();
        const merged = mergeEvents(this.eventsSignal(), page.items);
        const fromReader = merged.filter((event) => event.seq >= (step?.seq ?? Infinity)).length;
        this.eventsSignal.set(
          this.fitRows(trimWindow(merged, Math.max(WINDOW_MAX, fromReader), 'end'), {
            keep: 'end',
            anchorSeq: last.seq,
            anchorRows: heldRows(step),
            readerSeq: step?.seq,
          }),
        );
      },
    );
  }

  /** Replaces the window with events around `seq`; true when `seq` is now in the window. */
  async jumpTo(seq: number): Promise<boolean> {
    const id = this.idSignal();
    if (!id || this.loadingSignal() === 'initial') return false;
    const events = this.eventsSignal();
    if (events.length && events[0]!.seq <= seq && seq <= events.at(-1)!.seq) return true;
    return this.changeWindow(
      'jump',
      // Two reads: a page is also cut by its weight, so one read from 20 before might stop short.
      () =>
        Promise.all([
          this.chunk(id, { before: seq, limit: JUMP_CONTEXT }),
          this.chunk(id, { after: seq - 1, limit: PAGE }),
        ]),
      ([before, from]) => {
        this.lastSeq.update((last) => Math.max(last, before.last_seq, from.last_seq));
        this.following.set(false);
        this.eventsSignal.set(
          this.fitRows(mergeEvents(before.items, from.items), { keep: 'start' }),
        );
      },
    );
  }

  /**
   * Replaces the window with the conversation's first chunk (Home, "Go to the start"); true when
   * the window starts at the conversation's start (also when it already did).
   */
  async jumpToStart(): Promise<boolean> {
    const id = this.idSignal();
    if (!id || this.loadingSignal() === 'initial') return false;
    this.following.set(false);
    if (!this.bounds().hasOlder && !this.loadingSignal()) return true;
    return this.changeWindow(
      'jump',
      () => this.chunk(id, { after: 0, limit: PAGE }),
      (page) => {
        this.noteBounds(page);
        this.eventsSignal.set(this.fitRows(page.items, { keep: 'start' }));
      },
    );
  }

  /** Goes back to the live tail (the newest chunk); true when the window holds it. */
  async jumpToTail(): Promise<boolean> {
    const id = this.idSignal();
    if (!id || this.loadingSignal() === 'initial') return false;
    this.following.set(true);
    // A page on its way may take the tail out of the window: the tail is read again over it.
    if (!this.bounds().hasNewer && !this.loadingSignal()) return true;
    return this.changeWindow(
      'jump',
      () => this.chunk(id, { limit: PAGE }),
      (page) => {
        this.lastSeq.update((last) => Math.max(last, page.last_seq));
        this.eventsSignal.set(this.fitRows(page.items, { keep: 'end' }));
      },
    );
  }

  /**
   * One read that changes the window, shown only if nothing replaced the window meanwhile: a
   * jump (or another conversation opened) while a page is on its way wins over that page, and
   * the later of two jumps wins over the earlier.
   */
  private async changeWindow<T>(
    kind: 'older' | 'newer' | 'jump',
    read: () => Promise<T>,
    show: (answer: T) => void,
  ): Promise<boolean> {
    const turn = kind === 'jump' ? ++this.windowTurn : this.windowTurn;
    this.loadingSignal.set(kind);
    try {
      const answer = await read();
      if (turn !== this.windowTurn) return false;
      show(answer);
      return true;
    } catch (error: unknown) {
      if (turn === this.windowTurn) this.errorSignal.set(toApiFailure(error));
      return false;
    } finally {
      if (turn === this.windowTurn) this.loadingSignal.set(null);
    }
  }

  /** Reads clipped events whole, in place of their copies in the window (a row asked for them). */
  async readWhole(seqs: readonly number[]): Promise<void> {
    const id = this.idSignal();
    if (!id || seqs.length === 0) return;
    try {
      const pages = await Promise.all(
        seqs.map((seq) => this.api.events(id, { after: seq - 1, limit: 1 })),
      );
      if (this.idSignal() !== id) return;
      const whole = new Map(pages.flatMap((page) => page.items).map((event) => [event.seq, event]));
      this.eventsSignal.update((events) => events.map((event) => whole.get(event.seq) ?? event));
    } catch (error: unknown) {
      this.errorSignal.set(toApiFailure(error));
    }
  }

  /** Builds the turn/tool index by scanning the conversation forwards once, then keeps it live. */
  async ensureIndex(): Promise<void> {
    const id = this.idSignal();
    if (!id || this.indexWanted) return;
    this.indexWanted = true;
    this.indexingSignal.set(true);
    try {
      const slices = outlineSlices(this.lastSeq(), OUTLINE_SLICE);
      const outline = joinOutlines(
        await Promise.all(slices.map((slice) => this.api.outline(id, slice))),
      );
      const context = await this.opening.contextEvent(id, outline.init_seq);
      if (this.idSignal() !== id) return;
      const index = indexFromOutline(outline, context);
      // Live events that arrived while the outline was read are in the window: fold in those past it.
      this.indexSignal.set(extendIndex(index, this.eventsSignal(), this.agent()));
    } catch (error: unknown) {
      // The index only serves navigation; the conversation itself stays usable without it.
      this.errorSignal.set(toApiFailure(error));
      this.indexWanted = false;
    } finally {
      this.indexingSignal.set(false);
    }
  }

  /**
   * The first events of the conversation (its creation with the instructions it started with,
   * the agent's context line), read once per conversation however many parts ask.
   */
  openingEvents(): Promise<SessionEvent[]> {
    const id = this.idSignal();
    return id ? this.opening.read(id) : Promise.resolve([]);
  }

  refreshQueue(): Promise<void> {
    return this.queueState.refresh();
  }

  setQueue(entries: QueueEntry[]): void {
    this.queueState.set(entries);
  }

  /** Takes a copy of the session unless the one shown is fresher (see fresherSession). */
  updateSession(session: Session): void {
    this.sessionSignal.update((current) => fresherSession(current, session));
    this.live.upsertSession(session);
  }

  private follow(id: string, after: number): void {
    this.stream = sessionLines(id, after, () => this.apiKey.key()).subscribe((message) => {
      // The stream begins with the session as it is now: no second read closes the race.
      if (message.kind !== 'line') return;
      const line = message.line;
      if (line.type === 'session') {
        const before = this.sessionSignal();
        this.updateSession(line.session);
        if (
          !before ||
          before.queue_length !== line.session.queue_length ||
          line.session.queue_length > 0
        )
          void this.refreshQueue();
      } else if (line.type === 'event') {
        this.onLiveEvent(line.event);
      }
    });
  }

  private onLiveEvent(event: SessionEvent): void {
    shareRepeatedOutput(event);
    this.lastSeq.update((last) => Math.max(last, event.seq));
    const state = RelaisState.safeParse(event.data);
    const session = this.sessionSignal();
    if (state.success && session && session.state !== 'ended')
      this.sessionSignal.set({ ...session, state: state.data.state });
    if (this.indexWanted && !this.indexingSignal())
      this.indexSignal.update((index) => extendIndex(index, [event], session?.agent));
    const events = this.eventsSignal();
    const last = events.at(-1);
    // Append only when the window touches the tail; otherwise "jump to latest" fetches it.
    if (last && event.seq !== last.seq + 1 && event.seq > last.seq + 1) return;
    if (!this.following() && events.length >= WINDOW_MAX * 2) return;
    const merged = mergeEvents(events, [event]);
    const keep = this.following() ? 'end' : 'start';
    const window = keep === 'end' ? trimWindow(merged, WINDOW_MAX, 'end') : merged;
    const fit = ++this.liveSinceFit >= LIVE_FIT_EVERY;
    if (fit) this.liveSinceFit = 0;
    this.eventsSignal.set(fit ? this.fitRows(window, { keep }) : window);
  }

  /** What a page says of the whole conversation: where it starts, how far it has come. */
  private noteBounds(page: EventsPage): void {
    this.firstSeq.set(page.first_seq);
    this.lastSeq.update((last) => Math.max(last, page.last_seq));
  }

  /** A chunk of the conversation, its long texts clipped. */
  private chunk(id: string, range: EventsRange): Promise<EventsPage> {
    return this.api.events(id, { ...range, clip: EVENT_CLIP });
  }

  /**
   * Notes the rows as the page drew them (elements of each, by row key) and the page's element
   * count, so the next fits of the window use them instead of estimates.
   */
  noteDrawn(elements: ReadonlyMap<string, number>, pageElements: number): void {
    this.costs.noteDrawn(this.timeline(), elements, pageElements);
  }

  /** The events making at most ROWS_MAX rows within the element budget (or `rowsMax`, fast). */
  private fitRows(
    events: readonly SessionEvent[],
    trim: RowTrim,
    rowsMax = ROWS_MAX,
  ): SessionEvent[] {
    const rows = buildTimeline(events, this.agent());
    const seqs = rows.map((row) => row.seq);
    if (rowsMax > ROWS_MAX) return trimRows(events, seqs, rowsMax, trim);
    const costs = rows.map((row) => this.costs.of(row));
    return trimRows(events, seqs, ROWS_MAX, trim, { costs, max: this.costs.budget() });
  }

  /** About how many events make `rows` rows, judged on the window on screen. */
  private eventsForRows(rows: number): number {
    const perRow = this.eventsSignal().length / Math.max(1, this.timeline().length);
    return Math.max(PAGE / 4, Math.ceil(rows * Math.max(1, perRow)));
  }
}

/**
 * The step the reader is on as a chunk is shown, and how many rows from it the page would keep
 * (those in view and a little below; unknown: ANCHOR_ROWS).
 */
export interface ReaderStep {
  seq: number;
  rows?: number;
}

/**
 * Rows kept from the reader's step when a chunk is added beside the window: what the page counted
 * (the rest of the element budget goes to the chunk: a reader going up through heavy rows takes
 * fewer steps), at least one and at most ANCHOR_ROWS.
 */
function heldRows(step: ReaderStep | undefined): number {
  return Math.max(1, Math.min(ANCHOR_ROWS, step?.rows ?? ANCHOR_ROWS));
}

function rowSeqsOf(events: readonly SessionEvent[], agent: unknown): number[] {
  return buildTimeline(events, agent).map((row) => row.seq);
}
