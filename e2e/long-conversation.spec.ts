import { claudeLines } from '../daemon/src/testing/transcripts';
import { expect, expectAccessible, openAt, test, type Relais } from './support/fixtures';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { importTranscript } from './support/history';
import { CHROMIUM } from './support/daemon';

// The scrollbar's thumb is what these journeys look at: shown in their screenshots.
test.use({ launchOptions: { ...CHROMIUM, ignoreDefaultArgs: ['--hide-scrollbars'] } });

const OUTSIDE = 'f0f0f0f0-7777-4777-8777-777777777771';
const TURNS = 150;

/** A conversation of 150 turns (about 1,000 events) run outside Relais, imported into the demo subscription. */
async function longConversation(
  relais: Relais,
  request: APIRequestContext,
  outside = OUTSIDE,
  heavy = false,
): Promise<string> {
  const lines = claudeLines({
    sessionId: outside,
    cwd: relais.cwd,
    startMs: Date.now() - 3_600_000,
    turns: TURNS,
    resultBytes: 300,
  });
  // Heavy: each reply a list of ten items, as agents write them: rows of tens of elements, so the page's
  // element budget binds and rows far from the view are placeholders.
  const list = Array.from({ length: 10 }, (_, i) => `- **item ${i}** with \`code\``).join('\n');
  const replies = lines.map((line) =>
    !heavy
      ? line
      : line.replace(
          /Looking \(step (\d)\)\./,
          JSON.stringify(`Looking (step $1).\n\n${list}`).slice(1, -1),
        ),
  );
  const session = await importTranscript(relais, request, {
    agentSessionId: outside,
    project: '-long-conversation',
    lines: replies,
  });
  expect(session.last_seq, 'the long conversation is whole').toBeGreaterThan(600);
  return session.id as string;
}

/** The conversation's last seq, as the daemon counts it. */
async function lastSeqOf(relais: Relais, request: APIRequestContext, id: string): Promise<number> {
  const auth = { Authorization: `Bearer ${relais.key}` };
  return (await (await request.get(`${relais.base}/api/sessions/${id}`, { headers: auth })).json())
    .last_seq as number;
}

const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });
/** In the log, not the title (the first prompt names the conversation). */
const firstPrompt = (page: Page) =>
  conversation(page).getByText('Turn 0: look at the tests in src/ and fix the failing one', {
    exact: true,
  });
const lastPrompt = (page: Page) =>
  conversation(page).getByText(
    `Turn ${TURNS - 1}: look at the tests in src/ and fix the failing one`,
    {
      exact: true,
    },
  );

test('a long conversation: Home reads its first step at once, End its latest, a button does both by touch', async ({
  page,
  relais,
  request,
}) => {
  const id = await longConversation(relais, request);
  await openAt(page, relais, `/sessions/${id}`);
  const log = conversation(page);
  await expect(lastPrompt(page)).toBeVisible();
  await expect(firstPrompt(page)).toHaveCount(0);

  // Keyboard only: into the log, Home, and the first step is there without scrolling through.
  await log.focus();
  await page.keyboard.press('Home');
  await expect(firstPrompt(page)).toBeVisible();
  await expect(log.getByText('Start of the conversation')).toBeVisible();
  await expect(log).toBeFocused();
  await expect(lastPrompt(page)).toHaveCount(0);

  await page.keyboard.press('End');
  await expect(lastPrompt(page)).toBeVisible();
  await expect(firstPrompt(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Jump to latest ↓' })).toHaveCount(0);

  // On a phone, by touch: the button at the top of what is loaded.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(lastPrompt(page)).toBeVisible();
  // A screen up (the very top of the scrollbar is the conversation's start: see below).
  await log.evaluate((element) => (element.scrollTop -= element.clientHeight));
  const toStart = page.getByRole('button', { name: 'Go to the start ↑' });
  await expect(toStart).toBeVisible();
  await expectAccessible(page, 'a long conversation at 390 px');
  await page.screenshot({ path: 'test-results/long-conversation-top-390.png' });
  await toStart.click();
  await expect(firstPrompt(page)).toBeVisible();
  await expect(log).toBeFocused();
  await page.screenshot({ path: 'test-results/long-conversation-start-390.png' });
  await page.getByRole('button', { name: 'Jump to latest ↓' }).click();
  await expect(lastPrompt(page)).toBeVisible();
});

/** Elements in the page now. */
const elements = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

/**
 * The steps in the log's view, from its top: each seq and how far below the view's top it starts.
 * More than one, because the first may not stay a step of its own: a tool's result at the window's
 * edge joins its call's step when earlier rows arrive.
 */
const stepsInView = (log: Locator) =>
  log.evaluate((e) => {
    const box = e.getBoundingClientRect();
    return [...e.querySelectorAll<HTMLElement>('[data-seq]')]
      .map((s) => ({ seq: s.dataset['seq']!, rect: s.getBoundingClientRect() }))
      .filter(({ rect }) => rect.bottom > box.top && rect.top < box.bottom)
      .map(({ seq, rect }) => ({ seq, offset: rect.top - box.top }));
  });

for (const [width, height, outside] of [
  [1440, 900, 'f0f0f0f0-7777-4777-8777-777777777772'],
  [390, 844, 'f0f0f0f0-7777-4777-8777-777777777773'],
] as const) {
  test(`a long conversation at ${width} px: the scrollbar spans all of it, its top is the first step, rows added above move nothing`, async ({
    page,
    relais,
    request,
  }) => {
    const id = await longConversation(relais, request, outside, true);
    await page.setViewportSize({ width, height });
    const eventReads: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/sessions\/[^/]+\/events\?/.test(r.url())) eventReads.push(r.url());
    });
    let most = 0;
    const sample = async () => (most = Math.max(most, await elements(page)));
    await openAt(page, relais, `/sessions/${id}`);
    const log = conversation(page);
    // The tail on screen (the last prompt is above ten-item replies: maybe a placeholder by now).
    await expect(log.locator('[data-seq]').last()).toBeInViewport();
    await sample();

    // The thumb shows where the view is in the whole: at the bottom, a thumb a small part of the
    // track (the window is 1,000 events' last tenth or so), not a track of what was loaded.
    const track = await log.evaluate((e) => ({
      top: e.scrollTop,
      height: e.scrollHeight,
      view: e.clientHeight,
    }));
    expect(track.height, 'room for the steps not loaded').toBeGreaterThan(4 * track.view);
    expect(track.top + track.view).toBeGreaterThan(track.height - 60);

    // The thumb dragged to the middle: the steps there are read and shown, about half way.
    await log.evaluate((e) => (e.scrollTop = (e.scrollHeight - e.clientHeight) / 2));
    await expect
      .poll(
        async () => {
          const shown = await log.locator('.kind-user .user-text').allTextContents();
          const turns = shown.map((text) => Number(/^Turn (\d+):/.exec(text)?.[1] ?? -1));
          return turns.some((turn) => turn >= TURNS * 0.25 && turn <= TURNS * 0.75);
        },
        { message: 'a turn near the middle is shown' },
      )
      .toBe(true);
    await sample();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({
        path: `test-results/long-conversation-middle-${width}-${scheme}.png`,
      });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Scrolled up from there, earlier rows arrive above: the step read stays where it was.
    // The steps under the finger are those of the frames painted before the earlier rows arrive
    // (held back until then): rows the view lands on are drawn in its first frame, and before it
    // a placeholder's estimated height was never on screen.
    const reads = eventReads.length;
    const eventsRead = /\/api\/sessions\/[^/]+\/events\?/;
    let release = () => {};
    const gate = new Promise<void>((done) => (release = done));
    await page.route(eventsRead, async (route) => {
      await gate;
      await route.continue();
    });
    const before = await log.evaluate((e) => {
      const first = e.querySelector<HTMLElement>('[data-seq]')!;
      e.scrollTop += first.getBoundingClientRect().top - e.getBoundingClientRect().top;
      return first.dataset['seq'];
    });
    const frames = () =>
      page.evaluate(
        () =>
          new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(0)))),
      );
    await frames();
    const held = await stepsInView(log);
    expect(
      await log.evaluate((e) => e.querySelector<HTMLElement>('[data-seq]')!.dataset['seq']),
      'the earlier rows were held back',
    ).toBe(before);
    release();
    await expect
      .poll(() => log.evaluate((e) => e.querySelector<HTMLElement>('[data-seq]')!.dataset['seq']))
      .not.toBe(before);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(null))));
    const after = new Map((await stepsInView(log)).map((step) => [step.seq, step.offset]));
    expect(eventReads.length, 'earlier rows were read').toBeGreaterThan(reads);
    const kept = held.find((step) => after.has(step.seq));
    expect(kept, 'a step under the finger is still in view').toBeDefined();
    expect(
      Math.abs(after.get(kept!.seq)! - kept!.offset),
      `step ${kept!.seq} did not move`,
    ).toBeLessThan(2);
    await page.unroute(eventsRead);
    // The rows in view are drawn; those far from it are placeholders, hidden from screen readers.
    const drawing = await log.evaluate((e) => {
      const box = e.getBoundingClientRect();
      const placeholders = [...e.querySelectorAll<HTMLElement>('.placeholder')];
      return {
        inView: placeholders.filter((p) => {
          const { top, bottom } = p.getBoundingClientRect();
          return bottom > box.top && top < box.bottom;
        }).length,
        all: placeholders.length,
        hidden: placeholders.filter((p) => p.getAttribute('aria-hidden') === 'true').length,
        // A drawn step is an article that says where it is in the whole: its seq of the last.
        drawnPlaces: [...e.querySelectorAll<HTMLElement>('.step:not(.placeholder)')].map((s) => ({
          role: s.getAttribute('role'),
          at: Number(s.getAttribute('aria-posinset')),
          of: Number(s.getAttribute('aria-setsize')),
          seq: Number(s.dataset['seq']),
        })),
        placeholderRoles: placeholders.filter((p) => p.hasAttribute('role')).length,
      };
    });
    expect(drawing.inView, 'placeholders in view').toBe(0);
    expect(drawing.all, 'rows far from the view are placeholders').toBeGreaterThan(0);
    expect(drawing.hidden).toBe(drawing.all);
    expect(drawing.placeholderRoles, 'placeholders are no articles').toBe(0);
    const lastSeq = await lastSeqOf(relais, request, id);
    expect(drawing.drawnPlaces.length).toBeGreaterThan(0);
    for (const place of drawing.drawnPlaces)
      expect(place).toEqual({ role: 'article', at: place.seq, of: lastSeq, seq: place.seq });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `test-results/long-conversation-walk-${width}-${scheme}.png` });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await sample();

    // The thumb dragged to the top: the first step, read at once, not walked up to.
    const atTop = eventReads.length;
    await log.evaluate((e) => (e.scrollTop = 0));
    await expect(firstPrompt(page)).toBeVisible();
    await expect(log.getByText('Start of the conversation')).toBeVisible();
    expect(eventReads.length - atTop, 'one read for the start').toBeLessThanOrEqual(2);
    await sample();
    expect(most, 'elements on the page at most').toBeLessThanOrEqual(1500);
    // The log keeps its role and keys; the room outside the window is hidden from readers.
    await expect(log).toHaveAttribute('aria-keyshortcuts', 'Home End');
    await expect(log.locator('.space')).toHaveCount(2);
    for (const space of await log.locator('.space').all())
      await expect(space).toHaveAttribute('aria-hidden', 'true');
  });
}
