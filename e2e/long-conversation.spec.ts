import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeLines } from '../daemon/src/testing/transcripts';
import { expect, expectAccessible, openAt, test, type Relais } from './support/fixtures';
import type { APIRequestContext, Page } from '@playwright/test';
import { importDemoConversation } from './support/history';

const OUTSIDE = 'f0f0f0f0-7777-4777-8777-777777777771';
const TURNS = 150;

/** A conversation of 150 turns (about 1,000 events) run outside Relais, imported into the demo subscription. */
async function longConversation(relais: Relais, request: APIRequestContext): Promise<string> {
  const auth = { Authorization: `Bearer ${relais.key}` };
  const demo = await (
    await request.get(`${relais.base}/api/subscriptions/demo`, { headers: auth })
  ).json();
  const lines = claudeLines({
    sessionId: OUTSIDE,
    cwd: relais.cwd,
    startMs: Date.now() - 3_600_000,
    turns: TURNS,
    resultBytes: 300,
  });
  const project = join(demo.config_dir as string, 'projects');
  const folder = join(project, '-long-conversation');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${OUTSIDE}.jsonl`), lines.map((line) => `${line}\n`).join(''));
  const session = await importDemoConversation(relais, request, OUTSIDE);
  expect(session.last_seq, 'the long conversation is whole').toBeGreaterThan(600);
  return session.id;
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
  await log.evaluate((element) => (element.scrollTop = 0));
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
