import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { LiveStore } from '../core/live-store';
import { notePromptAnswered } from '../../first-paint/handoff';
import { FakeApi, provideFakeApi } from '../testing/fake-api';
import { PermissionRequest, Session, SessionEvent } from '../../../contract/api';
import { sampleSession } from '../testing/sample-session';
import {
  ANCHOR_ROWS,
  ConversationStore,
  FAST_PAGE,
  OPEN_SLICE_ROWS,
  JUMP_CONTEXT,
  PAGE,
  ROWS_MAX,
  WINDOW_MAX,
} from './conversation-store';
import { EVENT_CLIP, SLICE_BUDGET_MS, fastWindowRows } from './conversation-paging';
import { CHROME_GUESS, PAGE_ELEMENTS, SLACK_ELEMENTS, estimateElements } from './timeline/row-cost';
import { clearEarlyReads, startEarlyReads } from '../core/early-reads';

const session = sampleSession({ last_seq: 1000, turns: 1 });
const ev = (seq: number): SessionEvent => ({
  seq,
  received_at: '2026-01-01T00:00:00.000Z',
  received_at_ms: seq,
  source: 'relais',
  data: { type: 'relais', subtype: 'x' },
});
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ev(from + i));
/** Rows a fast reader's window holds (placeholders far from the view) at the starting budget. */
const FAST_ROWS = fastWindowRows(PAGE_ELEMENTS - CHROME_GUESS - SLACK_ELEMENTS);

/** An event that renders one row (a reply), as most lines of an imported transcript do. */
const reply = (seq: number): SessionEvent => ({
  ...ev(seq),
  source: 'agent',
  data: {
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text: `r${seq}` }] },
  },
});
const replies = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => reply(from + i));

/** The store with a fake daemon; the live stream is not under test: it never connects. */
function configureStore(): void {
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  TestBed.configureTestingModule({
    providers: [ConversationStore, ...provideFakeApi()],
  });
}

describe('ConversationStore paging', () => {
  let store: ConversationStore;
  let daemon: FakeApi;

  /** What each frame's work before its paint takes (ms): the opening sizes its slices by it. */
  let frameMs: number;

  beforeEach(() => {
    configureStore();
    store = TestBed.inject(ConversationStore);
    daemon = TestBed.inject(FakeApi);
    frameMs = SLICE_BUDGET_MS;
    vi.stubGlobal('requestAnimationFrame', (frame: FrameRequestCallback) =>
      setTimeout(() => frame(performance.now() - frameMs), 0),
    );
  });

  afterEach(() => {
    daemon.verify();
    vi.unstubAllGlobals();
  });

  const answer = async (url: string, body: object) => {
    await Promise.resolve();
    daemon.expectOne((r) => r.url === url).flush(body);
  };

  /** Answers the chunk read ahead of a fast reader, before seq `before` (replies from seq 1). */
  const answerAhead = (before: number) =>
    answer(`/api/sessions/s1/events?before=${before}&limit=${FAST_PAGE}&clip=${EVENT_CLIP}`, {
      items: replies(Math.max(1, before - FAST_PAGE), before - 1),
      next_cursor: before - FAST_PAGE > 1 ? String(before - FAST_PAGE) : null,
      first_seq: 1,
      last_seq: 1000,
    });

  /** Resolves once the frame after now is painted (when the store shows the rest of a chunk). */
  const painted = () =>
    new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

  /**
   * Opens s1 (events 1 to 1000) on `items` as its newest chunk, with an empty queue, and waits
   * for the first paint to be followed by the rest of the chunk (`{ painted: false }` does not).
   */
  const openOn = async (items: SessionEvent[], { painted: paint = true } = {}) => {
    const opening = store.open('s1');
    daemon.expectOne('/api/sessions/s1').flush(session);
    daemon.expectOne(`/api/sessions/s1/events?limit=${PAGE}&clip=${EVENT_CLIP}`).flush({
      items,
      next_cursor: String(items[0]!.seq),
      first_seq: 1,
      last_seq: 1000,
    });
    await opening;
    daemon.expectOne('/api/sessions/s1/queue').flush({ items: [], next_cursor: null });
    if (paint) while (store.filling()) await painted();
  };

  /** Home on s1 (events 1 to 1000), answered with its first chunk. */
  const jumpHome = async () => {
    const start = store.jumpToStart();
    await answer(`/api/sessions/s1/events?after=0&limit=${PAGE}&clip=${EVENT_CLIP}`, {
      items: replies(1, PAGE),
      next_cursor: String(PAGE),
      first_seq: 1,
      last_seq: 1000,
    });
    await start;
  };

  it('paints the last rows of the first chunk first, then the rest of it a slice a frame without asking again', async () => {
    await openOn(replies(881, 1000), { painted: false });
    expect(store.timeline().length).toBe(OPEN_SLICE_ROWS);
    expect(store.events()[0]?.seq).toBe(1001 - OPEN_SLICE_ROWS);
    expect(store.following()).toBe(true);
    expect(store.filling()).toBe(true);

    for (let slices = 2; slices * OPEN_SLICE_ROWS < ROWS_MAX; slices++) {
      await painted();
      expect(store.timeline().length).toBe(slices * OPEN_SLICE_ROWS);
      expect(store.filling()).toBe(true);
    }
    await painted();
    expect(store.filling()).toBe(false);
    expect(store.timeline().length).toBe(ROWS_MAX);
    expect(store.events()[0]?.seq).toBe(1001 - ROWS_MAX);
    expect(store.events().at(-1)?.seq).toBe(1000);
  });

  it('renders smaller slices when a slice’s frame took longer than the budget, larger when less', async () => {
    await openOn(replies(881, 1000), { painted: false });
    const half = OPEN_SLICE_ROWS / 2;
    frameMs = 2 * SLICE_BUDGET_MS;
    await painted(); // the first render took two budgets: the slice after it is half as large
    expect(store.timeline().length).toBe(OPEN_SLICE_ROWS + half);
    frameMs = SLICE_BUDGET_MS / 4;
    await painted(); // that slice took a quarter of the budget: twice as many rows, the most
    expect(store.timeline().length).toBe(OPEN_SLICE_ROWS + half + 2 * half);
    expect(store.filling()).toBe(true);
  });

  it('stops adding the first chunk above the reader once they left the tail; a scroll up adds the rest', async () => {
    await openOn(replies(881, 1000), { painted: false });
    await painted();
    expect(store.timeline().length).toBe(2 * OPEN_SLICE_ROWS);
    store.following.set(false);
    await painted();
    expect(store.filling()).toBe(false);
    expect(store.timeline().length).toBe(2 * OPEN_SLICE_ROWS);

    // The rest is still here: shown without a request.
    expect(await store.loadOlder()).toBe(true);
    expect(store.timeline().length).toBeGreaterThan(2 * OPEN_SLICE_ROWS);
    expect(store.events()[0]?.seq).toBeLessThan(1001 - 2 * OPEN_SLICE_ROWS);
  });

  it('holds as many rows as their elements allow: long answers make a shorter window', async () => {
    // Answers of 40 lines: about 66 elements each (a paragraph per line), not the 5 of a short one.
    const long = (seq: number): SessionEvent => ({
      ...reply(seq),
      data: {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: Array(40).fill(`line of ${seq}`).join('\n\n') }],
        },
      },
    });
    await openOn(Array.from({ length: PAGE }, (_, i) => long(881 + i)));
    const rows = store.timeline();
    const elements = rows.reduce((sum, row) => sum + estimateElements(row), 0);
    expect(elements).toBeLessThanOrEqual(PAGE_ELEMENTS - CHROME_GUESS - SLACK_ELEMENTS);
    expect(rows.length).toBeLessThan(ROWS_MAX / 4);
    expect(store.events().at(-1)?.seq).toBe(1000);

    // Drawn, the rows proved twice as heavy (the page around them 400): the window is refitted
    // to that when the reader scrolls up, and the older chunk is counted at that weight too.
    const drawn = new Map(rows.map((row) => [row.key, 2 * estimateElements(row)]));
    store.noteDrawn(drawn, elements * 2 + 400);
    const first = store.events()[0]!.seq;
    const older = store.loadOlder();
    await answer(`/api/sessions/s1/events?before=${first}&limit=${PAGE}&clip=${EVENT_CLIP}`, {
      items: Array.from({ length: PAGE }, (_, i) => long(first - PAGE + i)),
      next_cursor: String(first - PAGE),
      first_seq: 1,
      last_seq: 1000,
    });
    expect(await older).toBe(true);
    const after = store.timeline();
    expect(after[0]!.seq).toBeLessThan(first);
    const heavy = after.reduce((sum, row) => sum + 2 * estimateElements(row), 0);
    expect(heavy).toBeLessThanOrEqual(PAGE_ELEMENTS - 400 - SLACK_ELEMENTS);
  });

  it('a scroll up before the rest of the first chunk is painted shows it from memory', async () => {
    await openOn(replies(881, 1000), { painted: false });
    expect(await store.loadOlder()).toBe(true);
    // A scroll's worth of rows above those on screen (its first slice).
    const scrolled = OPEN_SLICE_ROWS + ROWS_MAX - ANCHOR_ROWS;
    expect(store.events()[0]?.seq).toBe(1001 - scrolled);

    // Shown once: the paint that follows adds nothing, and nothing was asked (verify() checks).
    await painted();
    expect(store.filling()).toBe(false);
    expect(store.events()[0]?.seq).toBe(1001 - scrolled);
    expect(store.timeline().length).toBe(scrolled);
    // The next scroll up shows more of the chunk from memory too (a window of ROWS_MAX).
    expect(await store.loadOlder()).toBe(true);
    expect(store.events()[0]?.seq).toBe(1001 - ROWS_MAX);
  });

  it('Home before the rest of the first chunk is painted: the start stays, the rest is dropped', async () => {
    await openOn(replies(881, 1000), { painted: false });
    await jumpHome();
    await painted();
    expect(store.events()[0]?.seq).toBe(1);
    expect(store.events().at(-1)?.seq).toBe(ROWS_MAX);
  });

  it('opens on the newest chunk, then pages backwards with before=<first seq>, keeping the window bounded', async () => {
    await openOn(range(881, 1000));
    expect(store.events()[0]?.seq).toBe(881);
    expect(store.bounds()).toEqual({ hasOlder: true, hasNewer: false });

    const older = store.loadOlder();
    await answer(`/api/sessions/s1/events?before=881&limit=${PAGE}&clip=${EVENT_CLIP}`, {
      items: range(761, 880),
      next_cursor: '761',
      first_seq: 1,
      last_seq: 1000,
    });
    await older;
    expect(store.events().length).toBe(WINDOW_MAX);
    expect(store.events()[0]?.seq).toBe(761);

    const oldest = store.loadOlder();
    await answer(`/api/sessions/s1/events?before=761&limit=${PAGE}&clip=${EVENT_CLIP}`, {
      items: range(641, 760),
      next_cursor: '641',
      first_seq: 1,
      last_seq: 1000,
    });
    await oldest;
    expect(store.events().length).toBe(WINDOW_MAX);
    expect(store.events().at(-1)?.seq).toBe(880);
    expect(store.bounds()).toEqual({ hasOlder: true, hasNewer: true });

    const newer = store.loadNewer();
    await answer(`/api/sessions/s1/events?after=880&limit=${PAGE}&clip=${EVENT_CLIP}`, {
      items: range(881, 1000),
      next_cursor: null,
      first_seq: 1,
      last_seq: 1000,
    });
    await newer;
    expect(store.events()[0]?.seq).toBe(761);
    expect(store.bounds().hasNewer).toBe(false);
  });

  /** Starts the reads of ses_early (events 881 to 1000 of 1000) as the app's start does. */
  const readEarly = async () => {
    const answers: Record<string, unknown> = {
      '/api/sessions/ses_early': { ...session, id: 'ses_early' },
      [`/api/sessions/ses_early/events?limit=${PAGE}&clip=${EVENT_CLIP}`]: {
        items: range(881, 1000),
        next_cursor: '881',
        first_seq: 1,
        last_seq: 1000,
      },
    };
    const get = ((url: string) =>
      answers[url]
        ? Promise.resolve(new Response(JSON.stringify(answers[url]), { status: 200 }))
        : new Promise(() => undefined)) as unknown as typeof fetch;
    startEarlyReads('/sessions/ses_early', 'k', get);
    await new Promise((resolve) => setTimeout(resolve));
  };

  /** Runs `check` with ses_early's reads started as the app's start does. */
  const withEarlyReads = async (check: () => Promise<void>) => {
    await readEarly();
    try {
      await check();
    } finally {
      clearEarlyReads();
    }
  };

  /** Awaits `opening` of ses_early: made of the early reads alone, then its queue asked. */
  const openedEarly = async (opening: Promise<void>) => {
    await opening;
    daemon.expectNone('/api/sessions/ses_early');
    daemon.expectOne('/api/sessions/ses_early/queue').flush({ items: [], next_cursor: null });
  };

  it('answers read while the app started are shown by open() itself, before it awaits anything', () =>
    withEarlyReads(async () => {
      const opening = store.open('ses_early');
      // In the same task: the page's first render shows them (no empty frame, then the events).
      expect(store.loading()).toBeNull();
      expect(store.session()?.id).toBe('ses_early');
      expect(store.events().at(-1)?.seq).toBe(1000);
      await openedEarly(opening);
    }));

  it('in steps (under the first paint), shows the session a frame before the rows', () =>
    withEarlyReads(async () => {
      const opening = store.open('ses_early', { inSteps: true });
      expect(store.session()?.id).toBe('ses_early');
      expect(store.loading()).toBe('initial');
      expect(store.events()).toEqual([]);
      await painted();
      expect(store.loading()).toBeNull();
      expect(store.events().at(-1)?.seq).toBe(1000);
      await openedEarly(opening);
    }));

  it('in steps, another conversation opened meanwhile is not overwritten by the first', () =>
    withEarlyReads(async () => {
      const first = store.open('ses_early', { inSteps: true });
      const second = openOn(range(881, 1000));
      await first;
      await second;
      expect(store.session()?.id).toBe('s1');
      expect(store.events().at(-1)?.seq).toBe(1000);
      daemon.expectNone('/api/sessions/ses_early/queue');
    }));

  it('a jump shows its target with the events before it, even when pages are cut by their weight', async () => {
    await openOn(range(881, 1000));

    const jumping = store.jumpTo(500);
    await Promise.resolve();
    // Heavy events: each page stops after a few of them, well short of its limit.
    daemon
      .expectOne(`/api/sessions/s1/events?before=500&limit=${JUMP_CONTEXT}&clip=${EVENT_CLIP}`)
      .flush({ items: range(497, 499), next_cursor: '497', first_seq: 1, last_seq: 1000 });
    daemon
      .expectOne(`/api/sessions/s1/events?after=499&limit=${PAGE}&clip=${EVENT_CLIP}`)
      .flush({ items: range(500, 501), next_cursor: '501', first_seq: 1, last_seq: 1000 });
    expect(await jumping).toBe(true);
    expect(store.events().map((event) => event.seq)).toEqual([497, 498, 499, 500, 501]);
    expect(store.bounds()).toEqual({ hasOlder: true, hasNewer: true });
    expect(store.following()).toBe(false);
  });

  it('clipped events are marked, the stream asks for clipped texts too, and a row reads its events whole in place', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (url: unknown) => {
      asked.push(String(url));
      return new Promise(() => undefined);
    });
    const cut: SessionEvent = { ...reply(1000), clipped: true };
    await openOn([...replies(990, 999), cut]);
    expect(asked).toEqual([`/api/sessions/s1/stream?after=1000&clip=${EVENT_CLIP}`]);
    expect([...store.clipped()]).toEqual([1000]);

    const reading = store.readWhole([1000]);
    const whole = {
      ...reply(1000),
      data: {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: 'whole' }] },
      },
    };
    await answer('/api/sessions/s1/events?after=999&limit=1', {
      items: [whole],
      next_cursor: null,
      first_seq: 1,
      last_seq: 1000,
    });
    await reading;
    expect(store.clipped().size).toBe(0);
    expect(store.events().map((event) => event.seq)).toEqual(replies(990, 1000).map((e) => e.seq));
    expect(store.timeline().at(-1)).toMatchObject({ kind: 'text', text: 'whole' });
  });

  it('a fast reader gets a larger chunk, and the window keeps a page of what was on screen', async () => {
    await openOn(range(881, 1000));

    const older = store.loadOlder(FAST_PAGE);
    await answer(`/api/sessions/s1/events?before=881&limit=${FAST_PAGE}&clip=${EVENT_CLIP}`, {
      items: range(881 - FAST_PAGE, 880),
      next_cursor: String(881 - FAST_PAGE),
      first_seq: 1,
      last_seq: 1000,
    });
    await older;
    expect(store.events()[0]?.seq).toBe(881 - FAST_PAGE);
    expect(store.events().at(-1)?.seq).toBe(880 + PAGE);
    expect(store.events().length).toBe(FAST_PAGE + PAGE);

    // The chunk before is read ahead of the reader at once, and the next step up shows it
    // without asking again (verify() checks).
    const before = 881 - FAST_PAGE;
    await answer(`/api/sessions/s1/events?before=${before}&limit=${FAST_PAGE}&clip=${EVENT_CLIP}`, {
      items: range(1, before - 1),
      next_cursor: null,
      first_seq: 1,
      last_seq: 1000,
    });
    expect(await store.loadOlder(FAST_PAGE)).toBe(true);
    expect(store.events()[0]?.seq).toBe(1);
  });

  it('Home reads the first chunk at once; End goes back to the newest and follows it', async () => {
    await openOn(replies(881, 1000));

    await jumpHome();
    expect(store.events()[0]?.seq).toBe(1);
    expect(store.timeline().length).toBe(ROWS_MAX);
    expect(store.bounds()).toEqual({ hasOlder: false, hasNewer: true });
    expect(store.following()).toBe(false);

    // At the start already: nothing is asked (verify() checks), and the page may scroll to it.
    expect(await store.jumpToStart()).toBe(true);

    const tail = store.jumpToTail();
    await answer(`/api/sessions/s1/events?limit=${PAGE}&clip=${EVENT_CLIP}`, {
      items: replies(881, 1000),
      next_cursor: '881',
      first_seq: 1,
      last_seq: 1000,
    });
    await tail;
    expect(store.events().at(-1)?.seq).toBe(1000);
    expect(store.bounds().hasNewer).toBe(false);
    expect(store.following()).toBe(true);
  });

  it('End while a page of earlier steps is on its way: the tail wins, whichever answer comes last', async () => {
    await openOn(range(881, 1000));
    const older = store.loadOlder(FAST_PAGE);
    const tail = store.jumpToTail();
    await Promise.resolve();
    daemon.expectOne(`/api/sessions/s1/events?limit=${PAGE}&clip=${EVENT_CLIP}`).flush({
      items: range(881, 1000),
      next_cursor: '881',
      first_seq: 1,
      last_seq: 1000,
    });
    await tail;
    daemon
      .expectOne(`/api/sessions/s1/events?before=881&limit=${FAST_PAGE}&clip=${EVENT_CLIP}`)
      .flush({ items: range(381, 880), next_cursor: '381', first_seq: 1, last_seq: 1000 });
    await older;
    expect(store.events()[0]?.seq).toBe(881);
    expect(store.events().at(-1)?.seq).toBe(1000);
    expect(store.following()).toBe(true);
    expect(store.loading()).toBeNull();
    // The late page is not kept for the next step either: scrolling up asks again.
    const again = store.loadOlder();
    await answer(`/api/sessions/s1/events?before=881&limit=${PAGE}&clip=${EVENT_CLIP}`, {
      items: range(761, 880),
      next_cursor: '761',
      first_seq: 1,
      last_seq: 1000,
    });
    await again;
    expect(store.events()[0]?.seq).toBe(761);
  });

  it('Home then End before either answer: the last one asked for is what shows', async () => {
    await openOn(range(881, 1000));
    const start = store.jumpToStart();
    const tail = store.jumpToTail();
    await Promise.resolve();
    daemon.expectOne(`/api/sessions/s1/events?limit=${PAGE}&clip=${EVENT_CLIP}`).flush({
      items: range(881, 1000),
      next_cursor: '881',
      first_seq: 1,
      last_seq: 1000,
    });
    daemon
      .expectOne(`/api/sessions/s1/events?after=0&limit=${PAGE}&clip=${EVENT_CLIP}`)
      .flush({ items: range(1, PAGE), next_cursor: String(PAGE), first_seq: 1, last_seq: 1000 });
    expect(await start, 'Home was overtaken: the page does not scroll for it').toBe(false);
    expect(await tail).toBe(true);
    expect(store.events().at(-1)?.seq).toBe(1000);
    expect(store.following()).toBe(true);
  });

  it('another conversation opened while a page of the first is on its way does not get that page', async () => {
    await openOn(range(881, 1000));
    const older = store.loadOlder();
    await Promise.resolve();
    const pending = daemon.expectOne(
      `/api/sessions/s1/events?before=881&limit=${PAGE}&clip=${EVENT_CLIP}`,
    );
    const opening = store.open('s2');
    daemon.expectOne('/api/sessions/s2').flush({ ...session, id: 's2', last_seq: 5 });
    daemon
      .expectOne(`/api/sessions/s2/events?limit=${PAGE}&clip=${EVENT_CLIP}`)
      .flush({ items: range(1, 5), next_cursor: null, first_seq: 1, last_seq: 5 });
    await opening;
    daemon.expectOne('/api/sessions/s2/queue').flush({ items: [], next_cursor: null });
    pending.flush({ items: range(761, 880), next_cursor: '761', first_seq: 1, last_seq: 1000 });
    await older;
    expect(store.events().map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(store.bounds(), 'nor what it said of its own length').toEqual({
      hasOlder: false,
      hasNewer: false,
    });
    expect(store.loading()).toBeNull();
  });

  it('the index and the steering panel share one read of the opening events', async () => {
    await openOn(range(881, 1000));
    const created: SessionEvent = {
      ...ev(1),
      data: { type: 'relais', subtype: 'session_created', instructions: null },
    };
    const init: SessionEvent = {
      ...ev(3),
      source: 'agent',
      data: { type: 'system', subtype: 'init', model: 'm', cwd: '/w', tools: ['Bash'] },
    };
    const opening = store.openingEvents();
    const indexing = store.ensureIndex();
    await answer('/api/sessions/s1/outline?after=0', {
      init_seq: 3,
      turns: [],
      tools: [],
      last_seq: 1000,
    });
    await Promise.resolve();
    daemon
      .expectOne('/api/sessions/s1/events?after=0&limit=5')
      .flush({ items: [created, ev(2), init], next_cursor: null, first_seq: 1, last_seq: 1000 });
    await indexing;
    expect((await opening).map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(store.index().init?.seq).toBe(3);
    // Asked again, it is not read again (verify() checks).
    expect((await store.openingEvents()).length).toBe(3);
  });

  it('a failed read of the first chunk keeps the window and says why', async () => {
    await openOn(range(881, 1000));
    const start = store.jumpToStart();
    await Promise.resolve();
    daemon
      .expectOne(`/api/sessions/s1/events?after=0&limit=${PAGE}&clip=${EVENT_CLIP}`)
      .flush({ error_code: 'unavailable', message: 'busy' }, { status: 503 });
    expect(await start).toBe(false);
    expect(store.events()[0]?.seq).toBe(881);
    expect(store.error()?.code).toBe('unavailable');
    expect(store.loading()).toBeNull();
  });

  it('a dense conversation is bounded by the rows it renders, and asks for chunks that fit', async () => {
    await openOn(replies(881, 1000));
    expect(store.timeline().length).toBe(ROWS_MAX);
    expect(store.events()[0]?.seq).toBe(1001 - ROWS_MAX);

    // One row per event: of the fast reader's chunk, only what fits beside the rows kept shows,
    // in a window of FAST_ROWS (the rows far from the view are placeholders).
    const first = 1001 - ROWS_MAX;
    const shown = FAST_ROWS - ANCHOR_ROWS;
    const older = store.loadOlder(FAST_PAGE);
    await answer(`/api/sessions/s1/events?before=${first}&limit=${FAST_PAGE}&clip=${EVENT_CLIP}`, {
      items: replies(first - FAST_PAGE, first - 1),
      next_cursor: String(first - FAST_PAGE),
      first_seq: 1,
      last_seq: 1000,
    });
    await older;
    expect(store.timeline().length).toBe(FAST_ROWS);
    expect(store.events()[0]?.seq).toBe(first - shown);
    expect(store.events().at(-1)?.seq).toBe(first - 1 + ANCHOR_ROWS);

    // The rest of that chunk shows next, joined to the chunk read ahead of it (one read more).
    const next = store.loadOlder(FAST_PAGE);
    await answerAhead(first - FAST_PAGE);
    await next;
    expect(store.timeline().length).toBe(FAST_ROWS);
    expect(store.events()[0]?.seq).toBe(first - 2 * shown);
  });

  it('a reader further down than the window’s first rows keeps the step they are on when earlier rows arrive', async () => {
    await openOn(replies(881, 1000));
    const first = 1001 - ROWS_MAX;
    // The reader is on a step 55 rows below the window's first: a chunk above must not push it out.
    const reader = first + 55;
    const older = store.loadOlder(FAST_PAGE, () => ({ seq: reader }));
    await answer(`/api/sessions/s1/events?before=${first}&limit=${FAST_PAGE}&clip=${EVENT_CLIP}`, {
      items: replies(first - FAST_PAGE, first - 1),
      next_cursor: String(first - FAST_PAGE),
      first_seq: 1,
      last_seq: 1000,
    });
    await older;
    await answerAhead(first - FAST_PAGE);
    const seqs = store.events().map((event) => event.seq);
    expect(store.timeline().length).toBe(FAST_ROWS);
    expect(seqs).toContain(reader);
    expect(seqs).toContain(reader + ANCHOR_ROWS - 1);
    // Earlier rows did arrive above the reader.
    expect(seqs[0]).toBeLessThan(first);
  });
  it('a reader whose rows in view were counted keeps those; the chunk above takes the rest', async () => {
    await openOn(replies(881, 1000));
    const first = 1001 - ROWS_MAX;
    // Seven rows in and just below the view at the window's top (a reader going up): 24 rows held
    // would leave the chunk 17 rows fewer, a step up fewer events, and the way to the start more steps.
    const held = 7;
    const older = store.loadOlder(FAST_PAGE, () => ({ seq: first, rows: held }));
    await answer(`/api/sessions/s1/events?before=${first}&limit=${FAST_PAGE}&clip=${EVENT_CLIP}`, {
      items: replies(first - FAST_PAGE, first - 1),
      next_cursor: String(first - FAST_PAGE),
      first_seq: 1,
      last_seq: 1000,
    });
    await older;
    await answerAhead(first - FAST_PAGE);
    expect(store.timeline().length).toBe(FAST_ROWS);
    expect(store.events()[0]?.seq).toBe(first - (FAST_ROWS - held));
    expect(store.events().at(-1)?.seq, 'the rows counted stay').toBe(first + held - 1);
  });
  it('a reader at the bottom of a window of many events keeps their step when a small chunk comes above', async () => {
    // A row every third event (the others render none), 200 events: a chunk of PAGE above makes
    // the window longer than its bound in events, which must be cut below the reader, not above.
    const sparse = (seq: number) => (seq % 3 === 0 ? reply(seq) : ev(seq));
    await openOn(Array.from({ length: 200 }, (_, i) => sparse(801 + i)));
    const reader = 999;
    const older = store.loadOlder(PAGE, () => ({ seq: reader, rows: 1 }));
    await answer(`/api/sessions/s1/events?before=801&limit=${PAGE}&clip=${EVENT_CLIP}`, {
      items: Array.from({ length: PAGE }, (_, i) => sparse(801 - PAGE + i)),
      next_cursor: String(801 - PAGE),
      first_seq: 1,
      last_seq: 1000,
    });
    await older;
    const seqs = store.events().map((event) => event.seq);
    expect(seqs, 'the step read stays').toContain(reader);
    expect(seqs[0]).toBeLessThan(801);
  });
  it('a reader who went up to the window’s first rows while a later chunk was on its way keeps them', async () => {
    await openOn(replies(881, 1000));
    const first = 1001 - ROWS_MAX;
    // The window is read from its first rows down, the page ending 40 rows above its last.
    const oldest = store.loadOlder(FAST_PAGE);
    await answer(`/api/sessions/s1/events?before=${first}&limit=${FAST_PAGE}&clip=${EVENT_CLIP}`, {
      items: replies(first - FAST_PAGE, first - 1),
      next_cursor: String(first - FAST_PAGE),
      first_seq: 1,
      last_seq: 1000,
    });
    await oldest;
    await answerAhead(first - FAST_PAGE);
    const top = store.events()[0]!.seq;
    const last = store.events().at(-1)!.seq;
    expect(store.bounds().hasNewer).toBe(true);
    // The reader was near the bottom when the later chunk was asked for, at the top when it came.
    let reader = last - 5;
    const newer = store.loadNewer(() => ({ seq: reader }));
    reader = top;
    await answer(
      `/api/sessions/s1/events?after=${last}&limit=${ROWS_MAX - ANCHOR_ROWS}&clip=${EVENT_CLIP}`,
      {
        items: replies(last + 1, last + ROWS_MAX - ANCHOR_ROWS),
        next_cursor: String(last + ROWS_MAX - ANCHOR_ROWS),
        first_seq: 1,
        last_seq: 1000,
      },
    );
    await newer;
    const seqs = store.events().map((event) => event.seq);
    expect(store.timeline().length).toBeLessThanOrEqual(ROWS_MAX);
    expect(seqs[0], 'the step read stays on screen').toBeLessThanOrEqual(top);
    expect(seqs).toContain(top + ANCHOR_ROWS - 1);
  });
});

describe('ConversationStore session copies', () => {
  const copy = (fields: Partial<Session>): Session => ({ ...(session as Session), ...fields });
  beforeEach(configureStore);

  it('a late answer does not undo what the stream said (Stop answered after "ended")', () => {
    const store = TestBed.inject(ConversationStore);
    store.updateSession(copy({ state: 'working', last_seq: 1000 }));
    store.updateSession(copy({ state: 'ended', last_seq: 1004 }));
    store.updateSession(copy({ state: 'stopping', last_seq: 1002 }));
    expect(store.session()?.state).toBe('ended');
    store.updateSession(copy({ state: 'stopping', last_seq: 1009 }));
    expect(store.session()?.state).toBe('ended');
  });

  it('overlapping queue reads: the answer to the last one asked for is the one shown', async () => {
    const store = TestBed.inject(ConversationStore);
    const daemon = TestBed.inject(FakeApi);
    const opening = store.open('s1');
    daemon.expectOne('/api/sessions/s1').flush(session);
    daemon.expectOne(`/api/sessions/s1/events?limit=${PAGE}&clip=${EVENT_CLIP}`).flush({
      items: range(991, 1000),
      next_cursor: null,
      first_seq: 991,
      last_seq: 1000,
    });
    await opening;
    const entry = (text: string) => ({
      id: `q_${text}`,
      session_id: 's1',
      text,
      position: 0,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const first = store.refreshQueue();
    const second = store.refreshQueue();
    const [openRead, older, newer] = daemon.match('/api/sessions/s1/queue');
    newer!.flush({ items: [entry('new')], next_cursor: null });
    await second;
    older!.flush({ items: [entry('old')], next_cursor: null });
    openRead!.flush({ items: [entry('older still')], next_cursor: null });
    await first;
    await Promise.resolve();
    expect(store.queue().map((e) => e.text)).toEqual(['new']);
    store.setQueue([entry('reordered')]);
    const third = store.refreshQueue();
    store.setQueue([entry('written after')]);
    daemon
      .expectOne('/api/sessions/s1/queue')
      .flush({ items: [entry('read before')], next_cursor: null });
    await third;
    expect(store.queue().map((e) => e.text)).toEqual(['written after']);
  });

  it('a fresher copy, or one of another session, replaces the one shown', () => {
    const store = TestBed.inject(ConversationStore);
    store.updateSession(copy({ state: 'working', last_seq: 1000 }));
    store.updateSession(copy({ state: 'idle', last_seq: 1000 }));
    expect(store.session()?.state).toBe('idle');
    store.updateSession(copy({ state: 'working', last_seq: 999 }));
    expect(store.session()?.state).toBe('idle');
    store.updateSession(copy({ id: 's2', state: 'starting', last_seq: 0 }));
    expect(store.session()?.id).toBe('s2');
  });
});

describe('ConversationStore prompts the first paint answered', () => {
  it('a prompt whose early answer failed is asked again at once, not when the stream next changes', () => {
    const prompt = { id: 'p-early', session_id: 'sess-early' } as PermissionRequest;
    vi.stubGlobal('fetch', () => new Promise(() => undefined));
    TestBed.configureTestingModule({
      providers: [
        ConversationStore,
        ...provideFakeApi(),
        { provide: LiveStore, useValue: { pending: signal([prompt]), session: () => undefined } },
      ],
    });
    const store = TestBed.inject(ConversationStore);
    void store.open('sess-early');
    expect(store.pending().map((p) => p.id)).toEqual(['p-early']);
    notePromptAnswered('p-early'); // The first paint's answer is on its way: not asked twice.
    expect(store.pending()).toEqual([]);
    notePromptAnswered('p-early', false); // It failed: the prompt still waits.
    expect(store.pending().map((p) => p.id)).toEqual(['p-early']);
  });
});
