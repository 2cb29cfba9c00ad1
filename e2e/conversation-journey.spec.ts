import { expect, expectAccessible, test } from './support/fixtures';

// Claude Code itself lets a plain `echo` run without asking, so the command goes through `sh -c`
// to reach the permission prompt, as a real command would.
const COMMAND = "sh -c 'echo hello'";

test('launch by hand, approve, see the result, queue and reorder, jump to a turn, stop', async ({
  page,
  relais,
}) => {
  await page.goto(relais.url);
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  expect(page.url()).not.toContain('key=');
  await expectAccessible(page, 'sessions dashboard');

  await page.getByRole('link', { name: 'Launch a session' }).first().click();
  await expect(page.getByRole('heading', { name: 'Launch a session' })).toBeVisible();
  await page.getByRole('button', { name: 'Detect models' }).click();
  await expect(page.getByRole('button', { name: 'Detect models' })).toBeEnabled();
  // A model is offered without opening the list; the person picks another, remembered next time.
  await expect(page.getByRole('combobox', { name: 'Model' })).not.toHaveText(/^\s*$/);
  await page.getByRole('combobox', { name: 'Model' }).click();
  const picked = page.getByRole('option').nth(1);
  const pickedName = (await picked.innerText()).trim();
  await picked.click();
  await page.getByRole('textbox', { name: 'Working directory' }).fill(relais.cwd);
  await page.getByRole('textbox', { name: 'First prompt (optional)' }).fill(`demo:bash ${COMMAND}`);
  await expectAccessible(page, 'launch form');
  await page.getByRole('button', { name: 'Launch', exact: true }).click();

  const prompt = page.getByRole('region', { name: 'Waiting for your answer' });
  await expect(prompt.getByText(COMMAND)).toBeVisible();
  await expectAccessible(page, 'conversation with a pending prompt');
  await prompt.getByRole('button', { name: 'Allow once' }).click();

  const call = page.locator('app-tool-call', { hasText: `$ ${COMMAND}` });
  await expect(call.getByRole('group', { name: 'Tool result' })).toContainText('hello');
  await expect(page.getByText('Command result: hello')).toBeVisible();

  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await expect(page.getByText('Will be sent now')).toBeVisible();
  await composer.fill('demo:slow 8000');
  await composer.press('Enter');
  await expect(page.getByText(/Will be queued/)).toBeVisible();
  await composer.fill('first queued');
  await composer.press('Enter');
  await composer.fill('second queued');
  await composer.press('Enter');

  const queue = page.getByRole('region', { name: /Queue/ });
  const entries = queue.locator('li.entry');
  await expect(entries).toHaveText([/first queued/, /second queued/]);
  await entries.nth(1).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(entries).toHaveText([/second queued/, /first queued/]);
  await expect(entries.first()).toBeFocused();
  await expectAccessible(page, 'conversation with a queue');

  await expect(page.getByText('You said: first queued')).toBeVisible({ timeout: 40_000 });
  const said = await page.locator('.kind-text').filter({ hasText: 'You said:' }).allTextContents();
  expect(said.findIndex((t) => t.includes('second queued'))).toBeLessThan(
    said.findIndex((t) => t.includes('first queued')),
  );
  await expect(queue.getByText('No instruction waiting')).toBeVisible();

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('combobox', { name: 'Search commands' });
  await expect(palette).toBeFocused();
  await palette.fill('go to turn 1');
  await expect(page.getByRole('option', { name: /Go to turn 1:/ })).toBeVisible();
  await expectAccessible(page, 'command palette');
  await palette.press('Enter');
  const turnOne = page.locator('[data-seq]', { hasText: `demo:bash ${COMMAND}` }).first();
  await expect(turnOne).toBeFocused();
  await expect(turnOne).toBeInViewport();

  // Stop asks first; "Keep running" takes the focus, so a stray Enter changes nothing.
  await page.getByRole('button', { name: 'Stop…' }).click();
  await expect(page.getByRole('button', { name: 'Keep running' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Stop…' })).toBeFocused();
  await expect(page.locator('header app-state-chip')).not.toHaveText('ended');
  await page.getByRole('button', { name: 'Stop…' }).click();
  await page.getByRole('button', { name: 'Stop session' }).click();
  await expect(page.locator('header app-state-chip')).toHaveText('ended', { timeout: 30_000 });
  await expect(page.locator('.notice', { hasText: 'Session ended' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop…' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeEnabled();

  // The next launch starts where this one ran: same subscription, model and folder.
  await page.goto(`${relais.base}/sessions/new`);
  await expect(page.getByRole('textbox', { name: 'Working directory' })).toHaveValue(relais.cwd);
  await expect(page.getByRole('combobox', { name: 'Model' })).toContainText(pickedName);
});
