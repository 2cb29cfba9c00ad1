import type { APIRequestContext, Page } from '@playwright/test';
import { claudeLines } from '../daemon/src/testing/transcripts';
import { importTranscript } from './support/history';
import { expect, expectAccessible, openAt, test, type Relais } from './support/fixtures';

const TURNS = 300;
/** Held by one early event only: the output of the third turn's tool call. */
const WORD = 'Quetzalcoatl';

/**
 * A conversation of 300 turns (about 2,100 events) run outside Relais, imported; one early output
 * holds WORD. One per test (under its own agent id): the daemon is the worker's.
 */
async function longConversation(
  relais: Relais,
  request: APIRequestContext,
  outside: string,
): Promise<string> {
  const lines = claudeLines({
    sessionId: outside,
    cwd: relais.cwd,
    startMs: Date.now() - 7_200_000,
    turns: TURNS,
    resultBytes: 200,
  });
  const early = lines.findIndex((line) =>
    line.includes(`"tool_use_id":"toolu_${outside.slice(0, 8)}_2"`),
  );
  lines[early] = lines[early]!.replaceAll('x'.repeat(200), `found ${WORD.toLowerCase()} here`);
  const session = await importTranscript(relais, request, {
    agentSessionId: outside,
    project: '-find-conversation',
    lines,
  });
  expect(session.last_seq, 'the long conversation is whole').toBeGreaterThan(1500);
  return session.id;
}

/** The step holding the keyboard: its seq and kind, and whether it is inside the log's view. */
const focusedStep = (page: Page) =>
  page.evaluate(() => {
    const step = document.activeElement?.closest<HTMLElement>('.step');
    const log = document.querySelector('[role=log]')!.getBoundingClientRect();
    if (!step) return null;
    const box = step.getBoundingClientRect();
    return {
      seq: Number(step.dataset['seq']),
      tool: step.classList.contains('kind-tool'),
      highlighted: step.classList.contains('highlight'),
      inView: box.top >= log.top - 1 && box.top < log.bottom,
    };
  });

test('Ctrl+F finds a word only an early step holds, far outside the drawn window, and lands on it', async ({
  page,
  relais,
  request,
}) => {
  const id = await longConversation(relais, request, 'f1f1f1f1-8888-4888-8888-888888888881');
  const hit = await (
    await request.get(`${relais.base}/api/sessions/${id}/search?q=${WORD}&after=0`, {
      headers: { Authorization: `Bearer ${relais.key}` },
    })
  ).json();
  expect(hit.items).toHaveLength(1);
  const resultSeq = hit.items[0].seq as number;

  await openAt(page, relais, `/sessions/${id}`);
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.getByText(`Turn ${TURNS - 1}: look at the tests`)).toBeVisible();
  // The browser's own find could not see it: the step is not in the page.
  await expect(log.getByText('Turn 2: look at the tests', { exact: false })).toHaveCount(0);

  await log.focus();
  await page.keyboard.press('ControlOrMeta+f');
  const field = page.getByRole('searchbox', { name: 'Find in the conversation' });
  await expect(field).toBeFocused();
  await page.keyboard.type(WORD.toUpperCase());
  const status = page.getByRole('search').getByRole('status');
  await expect(status).toHaveText('1 match');
  await expectAccessible(page, 'the find bar open');
  await page.screenshot({ path: 'test-results/find-bar-open.png' });

  await page.keyboard.press('Enter');
  await expect(status).toHaveText('1 of 1');
  // The bar says where the words are, whether the row shows that part open or not.
  await expect(page.getByRole('search').locator('mark')).toHaveText('quetzalcoatl');
  // The result is shown in its call's step (the event just before it), in view and focused.
  await expect
    .poll(() => focusedStep(page))
    .toEqual({
      seq: resultSeq - 1,
      tool: true,
      highlighted: true,
      inView: true,
    });
  await expect(log.getByText('Turn 2: look at the tests', { exact: false })).toBeVisible();
  // The words themselves are marked where the row draws them (the browser's highlight ranges).
  const marked = () =>
    page.evaluate(() =>
      [
        ...((CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get(
          'relais-find',
        ) ?? []),
      ].map((range) => range.toString()),
    );
  await expect.poll(marked).toEqual(['quetzalcoatl']);
  await page.screenshot({ path: 'test-results/find-landed.png' });

  // Escape on that step: the bar closes, the keyboard stays where the reading is.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('search')).toHaveCount(0);
  expect((await focusedStep(page))?.seq).toBe(resultSeq - 1);
  // Opened again and closed from its field: the keyboard goes back to that step.
  await page.keyboard.press('ControlOrMeta+f');
  await expect(field).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('search')).toHaveCount(0);
  expect((await focusedStep(page))?.seq).toBe(resultSeq - 1);
});

test('at 390 px, by the palette: the bar fits, says when nothing matches, and goes by its buttons', async ({
  page,
  relais,
  request,
}) => {
  const id = await longConversation(relais, request, 'f2f2f2f2-8888-4888-8888-888888888882');
  await page.setViewportSize({ width: 390, height: 844 });
  await openAt(page, relais, `/sessions/${id}`);
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.getByText(`Turn ${TURNS - 1}: look at the tests`)).toBeVisible();
  await page.keyboard.press('ControlOrMeta+k');
  await page.keyboard.type('Find in the conversation');
  await page.keyboard.press('Enter');
  const field = page.getByRole('searchbox', { name: 'Find in the conversation' });
  await expect(field).toBeFocused();
  await page.keyboard.type('"type"');
  const status = page.getByRole('search').getByRole('status');
  await expect(status).toHaveText('No match');
  await field.fill('turn 29');
  await expect(status).toHaveText('11 matches');
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  expect(overflow, 'nothing wider than the phone').toBe(false);
  await expectAccessible(page, 'the find bar at 390 px');
  await page.getByRole('button', { name: 'Previous match' }).click();
  await expect(status).toHaveText('11 of 11');
  await expect(log.getByText('Turn 299: look at the tests')).toBeVisible();
  await page.screenshot({ path: 'test-results/find-bar-390.png' });
});
