import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { claudeLines } from '../daemon/src/testing/transcripts';
import { expect, expectAccessible, openAt, test, type Relais } from './support/fixtures';
import { firstPaint, holdConsole } from './support/first-paint';
import { importDemoConversation } from './support/history';

/** Each test its own conversation: the tests of a worker share one daemon and its demo folder. */
const OUTSIDE = [
  'f1f1f1f1-8888-4888-8888-888888888881',
  'f2f2f2f2-8888-4888-8888-888888888882',
  'f3f3f3f3-8888-4888-8888-888888888883',
];
/** The last prompt of the conversation: markup a careless page would run. */
const HOSTILE = 'Last: <img src=x onerror="window.__owned=1"> and <b>bold</b>?';

/** A 12-turn conversation run outside Relais, its last prompt hostile, imported into the demo subscription. */
async function importedConversation(
  relais: Relais,
  request: APIRequestContext,
  sessionId: string,
): Promise<string> {
  const auth = { Authorization: `Bearer ${relais.key}` };
  const demo = await (
    await request.get(`${relais.base}/api/subscriptions/demo`, { headers: auth })
  ).json();
  const startMs = Date.now() - 3_600_000;
  const lines = claudeLines({ sessionId, cwd: relais.cwd, startMs, turns: 12 });
  const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  lines.push(
    JSON.stringify({
      ...last,
      type: 'user',
      parentUuid: last['uuid'],
      uuid: `${sessionId.slice(0, 8)}-last`,
      timestamp: new Date(startMs + 3_000_000).toISOString(),
      message: { role: 'user', content: HOSTILE },
    }),
  );
  const folder = join(demo.config_dir as string, 'projects', '-first-paint');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${sessionId}.jsonl`), lines.map((line) => `${line}\n`).join(''));
  return (await importDemoConversation(relais, request, sessionId)).id;
}

/** The person's messages in a session's events, oldest first. */
async function userMessages(
  request: APIRequestContext,
  relais: Relais,
  id: string,
): Promise<string[]> {
  const response = await request.get(`${relais.base}/api/sessions/${id}/events?limit=500`, {
    headers: { Authorization: `Bearer ${relais.key}` },
  });
  type Line = { type?: string; message?: { content?: { type: string; text?: string }[] } };
  const { items } = (await response.json()) as { items: { source: string; data: Line }[] };
  // What Relais wrote to the agent: a user line of text blocks (claude-process.ts).
  return items
    .filter((event) => event.source === 'host' && event.data.type === 'user')
    .flatMap((event) => event.data.message?.content ?? [])
    .flatMap((block) => (block.type === 'text' && block.text ? [block.text] : []));
}

const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });

test('a conversation opened by its address shows its last rows before the console has started, as text, then the console takes their place', async ({
  page,
  relais,
  request,
}) => {
  const id = await importedConversation(relais, request, OUTSIDE[0]!);
  await openAt(page, relais, '/analytics');
  await expect(
    page.locator('script[src*="first-paint"]'),
    'other pages start as before',
  ).toHaveCount(0);

  const release = await holdConsole(page);
  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(firstPaint(page)).toBeVisible();
  await expect(firstPaint(page).getByRole('region', { name: /conversation/ })).toHaveAttribute(
    'aria-busy',
    'true',
  );
  await expect(
    firstPaint(page).getByRole('textbox'),
    'an imported conversation takes no message',
  ).toHaveCount(0);
  await expect(firstPaint(page).getByText(HOSTILE, { exact: true })).toBeVisible();
  await expect(
    firstPaint(page).getByText('Turn 11: look at the tests in src/ and fix the failing one'),
  ).toBeVisible();
  await expect(firstPaint(page).locator('img, b')).toHaveCount(0);
  await expect(page.locator('app-root')).toBeEmpty();
  await expectAccessible(page, 'the first paint of a conversation');
  await page.screenshot({ path: 'test-results/first-paint-1440.png' });

  await release();
  await expect(log(page).getByText(HOSTILE, { exact: true })).toBeVisible();
  await expect(firstPaint(page)).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __owned?: number }).__owned)).toBeUndefined();

  // Keyboard only, once the console is there: the skip link, then the page's own controls.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
});

test('on a phone, in dark, the first paint keeps to the screen and its theme, and keeps a shortcut for the console', async ({
  page,
  relais,
  request,
}) => {
  const id = await importedConversation(relais, request, OUTSIDE[1]!);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await openAt(page, relais);
  await page.evaluate(() => localStorage.setItem('relais.theme', 'dark'));
  const release = await holdConsole(page);
  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(firstPaint(page).getByText(HOSTILE, { exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/theme-dark/);
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
  expect(sideways, 'nothing scrolls sideways').toBe(false);
  await expectAccessible(page, 'the first paint at 390 px in dark');
  await page.screenshot({ path: 'test-results/first-paint-390-dark.png' });
  // A shortcut pressed before the console has started is not lost: it opens once it has.
  await page.keyboard.press('Control+k');
  await release();
  await expect(page.getByRole('combobox', { name: 'Search commands' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(log(page).getByText(HOSTILE, { exact: true })).toBeVisible();
  await expect(firstPaint(page)).toHaveCount(0);
});

test("a live conversation's first paint sends on Enter before the console has started, and the console's composer goes on with what was typed after", async ({
  page,
  relais,
  request,
}) => {
  const id = await relais.launch('first words');
  await openAt(page, relais, `/sessions/${id}`);
  await expect(page.getByText('Demo model here. You said: first words')).toBeVisible({
    timeout: 30_000,
  });
  const release = await holdConsole(page);
  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(firstPaint(page)).toContainText('Demo model here. You said: first words');
  const early = firstPaint(page).getByRole('textbox', { name: 'Message to the agent' });
  // Keyboard only: Tab reaches the box, Enter sends what was typed, what follows stays.
  await page.keyboard.press('Tab');
  await expect(early).toBeFocused();
  await page.keyboard.type('second words');
  await page.keyboard.press('Enter');
  await expect(early).toHaveValue('');
  await page.keyboard.type('third words');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
  // Sent while the console's script is still held: the daemon has the message.
  await expect
    .poll(() => userMessages(request, relais, id), { timeout: 30_000 })
    .toEqual(['first words', 'second words']);
  await expect(firstPaint(page).getByText(/^(Sent|Queued)/)).toBeVisible();
  await expect(page.locator('app-root')).toBeEmpty();
  await expectAccessible(page, "a live conversation's first paint");
  await page.screenshot({ path: 'test-results/first-paint-live-1440.png' });

  await release();
  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await expect(firstPaint(page)).toHaveCount(0);
  await expect(composer).toHaveValue('third words');
  await expect(composer).toBeFocused();
  // The caret stayed where it was: before " words".
  await page.keyboard.type('!');
  await expect(composer).toHaveValue('third! words');
  await expect(page.getByText('Demo model here. You said: second words')).toBeVisible({
    timeout: 30_000,
  });
  await page.keyboard.press('Enter');
  await expect(page.getByText('Demo model here. You said: third! words')).toBeVisible({
    timeout: 30_000,
  });
  // Each message reached the agent once: the console sent nothing of what the first paint had.
  expect(await userMessages(request, relais, id)).toEqual([
    'first words',
    'second words',
    'third! words',
  ]);
});

/** A session's prompts as the daemon holds them: their states, oldest first. */
async function promptStates(
  request: APIRequestContext,
  relais: Relais,
  id: string,
): Promise<string[]> {
  const response = await request.get(`${relais.base}/api/permissions?session=${id}`, {
    headers: { Authorization: `Bearer ${relais.key}` },
  });
  const { items } = (await response.json()) as { items: { state: string }[] };
  return items.map((item) => item.state);
}

test('a prompt waiting in a live conversation is answered in the first paint once armed, by keyboard, and not asked again; one answered elsewhere meanwhile says so', async ({
  page,
  relais,
  request,
}) => {
  // A console listening: the prompts wait for a person.
  await openAt(page, relais);
  const id = await relais.launch("demo:bash sh -c 'echo early'");
  const other = await relais.launch("demo:bash sh -c 'echo elsewhere'");
  for (const session of [id, other])
    await expect.poll(() => promptStates(request, relais, session)).toEqual(['pending']);

  // A window too short to show the prompt: it is not in view, so it cannot arm, however slow
  // the machine (arming counts the time in view; a test's steps may take longer than its delay).
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: viewport.width, height: 120 });
  let release = await holdConsole(page);
  await page.goto(`${relais.base}/sessions/${id}`);
  const prompts = firstPaint(page).getByRole('region', { name: 'Waiting for your answer' });
  await expect(prompts.getByRole('heading', { name: 'Bash asks permission' })).toBeAttached();
  await expect(prompts).toContainText("sh -c 'echo early'");
  const allow = prompts.getByRole('button', { name: 'Allow once' });
  await expect(allow).not.toBeInViewport();
  // Not armed yet: Enter (a key meant for something else) does not answer it.
  await allow.evaluate((button) => button.focus({ preventScroll: true }));
  await expect(allow).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Enter');
  expect(await promptStates(request, relais, id)).toEqual(['pending']);
  // In view, by keyboard: arms after its delay, then Enter answers it.
  await page.setViewportSize(viewport);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(allow).toBeFocused();
  await expect(allow).toBeInViewport();
  await expect(allow).toHaveAttribute('aria-disabled', 'false');
  expect(await promptStates(request, relais, id)).toEqual(['pending']);
  await expectAccessible(page, 'a prompt in the first paint');
  await page.screenshot({ path: 'test-results/first-paint-prompt-1440.png' });
  await page.keyboard.press('Enter');
  await expect(prompts.getByText('Allowed.')).toBeVisible();
  await expect.poll(() => promptStates(request, relais, id)).toEqual(['allowed']);
  await expect(page.locator('app-root')).toBeEmpty();

  await release();
  await expect(firstPaint(page)).toHaveCount(0);
  await expect(log(page).getByText('Command result: early')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('app-permission-card')).toHaveCount(0);

  // Answered elsewhere while the first paint shows it: the daemon refuses a second answer.
  release = await holdConsole(page);
  await page.goto(`${relais.base}/sessions/${other}`);
  const card = firstPaint(page).getByRole('article', { name: 'Bash asks permission' });
  await expect(card).toContainText("sh -c 'echo elsewhere'");
  const decided = await request.post(
    `${relais.base}/api/permissions/${await pendingId(request, relais, other)}/decision`,
    {
      headers: { Authorization: `Bearer ${relais.key}` },
      data: { decision: 'deny', scope: 'once' },
    },
  );
  expect(decided.ok()).toBe(true);
  await page.keyboard.press('Tab');
  await expect(card.getByRole('button', { name: 'Allow once' })).toHaveAttribute(
    'aria-disabled',
    'false',
  );
  await page.keyboard.press('Enter');
  await expect(card.getByText('Already answered elsewhere.')).toBeVisible();
  await expect(card.getByRole('button')).toHaveCount(0);
  await release();
  await expect(firstPaint(page)).toHaveCount(0);
  await expect(page.locator('app-permission-card')).toHaveCount(0);
  expect(await promptStates(request, relais, other)).toEqual(['denied']);
});

async function pendingId(request: APIRequestContext, relais: Relais, id: string): Promise<string> {
  const response = await request.get(`${relais.base}/api/permissions?state=pending&session=${id}`, {
    headers: { Authorization: `Bearer ${relais.key}` },
  });
  return ((await response.json()) as { items: { id: string }[] }).items[0]!.id;
}

test('a key the daemon refuses paints nothing, and the console asks for a key as always', async ({
  page,
  relais,
  request,
}) => {
  const id = await importedConversation(relais, request, OUTSIDE[2]!);
  await page.goto(`${relais.base}/sessions/${id}#key=not-the-key`);
  await expect(page.getByRole('heading', { name: 'Connect to your Relais daemon' })).toBeVisible();
  await expect(firstPaint(page)).toHaveCount(0);
});
