import { expect, expectAccessible, test } from './support/fixtures';
import { firstPaint, holdConsole } from './support/first-paint';

const COMMAND = 'touch codex-journey.txt';

test('a Codex session: launch on the Codex subscription, approve a command, steer now, stop, resume', async ({
  page,
  relais,
}) => {
  await page.goto(relais.url);
  await page.getByRole('link', { name: 'Launch a session' }).first().click();
  await expect(page.getByRole('heading', { name: 'Launch a session' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Subscription' }).click();
  await page.getByRole('option', { name: 'Demo Codex (scripted model)' }).click();
  await expect(page.getByText('Agent: codex')).toBeVisible();
  await page.getByRole('button', { name: 'Detect models' }).click();
  await expect(page.getByRole('button', { name: 'Detect models' })).toBeEnabled();
  await page.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option').first().click();
  await page.getByRole('textbox', { name: 'Working directory' }).fill(relais.cwd);
  await page.getByRole('textbox', { name: 'First prompt (optional)' }).fill(`demo:bash ${COMMAND}`);
  await page.getByRole('button', { name: 'Launch', exact: true }).click();

  await expect(page.locator('header .facts')).toContainText('codex ·');
  const conversationUrl = page.url();
  const prompt = page.getByRole('region', { name: 'Waiting for your answer' });
  await expect(prompt.getByText(COMMAND)).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, 'Codex conversation with a pending prompt');
  await prompt.getByRole('button', { name: 'Allow once' }).click();

  const call = page.locator('app-tool-call', { hasText: `$ ${COMMAND}` });
  await expect(call).toBeVisible();
  await expect(page.getByText(/Command result:/)).toBeVisible({ timeout: 30_000 });

  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await expect(page.getByText('Will be sent now')).toBeVisible();
  await composer.fill('demo:slow 60000');
  await composer.press('Enter');
  await expect(page.getByText(/Will be queued/)).toBeVisible();
  await composer.fill('steered in');
  await page.getByRole('button', { name: 'Steer now' }).click();
  await expect(page.getByText('Demo model here. You said: steered in')).toBeVisible({
    timeout: 30_000,
  });
  await expectAccessible(page, 'Codex conversation after a steer');

  await page.getByRole('link', { name: '← Sessions' }).click();
  await expect(page.getByRole('cell', { name: 'codex', exact: true }).first()).toBeVisible();
  // Opened by its address, the conversation's last rows show before the console has started.
  const release = await holdConsole(page);
  await page.goto(conversationUrl);
  await expect(firstPaint(page)).toContainText('Demo model here. You said: steered in');
  await expect(firstPaint(page).getByText('steered in', { exact: true })).toBeVisible();
  await expect(firstPaint(page)).toContainText('codex · model');
  await release();
  await expect(firstPaint(page)).toHaveCount(0);
  // The steering outline reads Codex's events too: its turns, and the command it ran.
  const steering = page.getByRole('region', { name: 'Steering' });
  await expect(steering.getByText(/^of [1-9]\d*$/)).toBeVisible();
  await steering.getByRole('button', { name: /^Bash \(\d+\)$/ }).click();
  await expect(steering.getByRole('list', { name: 'Bash calls, newest first' })).toContainText(
    COMMAND,
  );
  await page.getByRole('button', { name: 'Stop…' }).click();
  await page.getByRole('button', { name: 'Stop session' }).click();
  await expect(page.locator('header app-state-chip')).toHaveText('ended', { timeout: 30_000 });

  // An ended session's conversation goes on in a new session (thread/resume).
  await expect(page.locator('#ended-note')).toContainText('This session has ended.');
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Resume this conversation?' })
    .getByRole('button', { name: 'Resume session' })
    .click();
  await expect(page).not.toHaveURL(conversationUrl);
  await expect(page.locator('header app-state-chip')).toHaveText('idle', { timeout: 30_000 });
  await composer.fill('after the resume');
  await composer.press('Enter');
  await expect(page.getByText('Demo model here. You said: after the resume')).toBeVisible({
    timeout: 30_000,
  });
  await expectAccessible(page, 'Codex conversation resumed in a new session');
  await page.getByRole('button', { name: 'Stop…' }).click();
  await page.getByRole('button', { name: 'Stop session' }).click();
  await expect(page.locator('header app-state-chip')).toHaveText('ended', { timeout: 30_000 });
});
