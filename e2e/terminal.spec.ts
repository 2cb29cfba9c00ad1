import type { Page } from '@playwright/test';
import { expect, expectAccessible, openAt, test } from './support/fixtures';

/** What the terminal shows, as text (xterm.js draws rows of spans). */
const screen = (page: Page) => page.locator('#terminal-region .xterm-rows');

test('terminal: joins the conversation, sends, answers a prompt, interrupts, leaves by keyboard', async ({
  page,
  relais,
}) => {
  const id = await relais.launch('words before the terminal');
  await openAt(page, relais, `/sessions/${id}`);
  await expect(page.locator('header app-state-chip')).toHaveText('idle');

  // Opened from the palette, by keyboard: the keys go into the terminal.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('Open the terminal');
  await page.keyboard.press('Enter');
  const region = page.getByRole('region', { name: 'Terminal' });
  await expect(region).toBeVisible();
  const toggle = page.locator('#terminal-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(screen(page)).toContainText(
    'agent ▸ Demo model here. You said: words before the terminal',
  );
  const input = page.getByRole('textbox', { name: 'Terminal: message to the agent' });
  await expect(input).toBeFocused();

  await page.keyboard.type('hello from the browser terminal');
  await page.keyboard.press('Enter');
  await expect(screen(page)).toContainText(
    'agent ▸ Demo model here. You said: hello from the browser terminal',
  );
  // The same conversation: the page's timeline shows the message too.
  await expect(page.getByRole('log', { name: 'Conversation' })).toContainText(
    'hello from the browser terminal',
  );

  await page.keyboard.type('demo:bash echo from-xterm');
  await page.keyboard.press('Enter');
  await expect(screen(page)).toContainText('? Bash waits for you');
  await expect(screen(page)).toContainText('answer (y/s/n) ▸');
  await expectAccessible(page, 'conversation with the terminal open and a prompt waiting');
  await page.screenshot({ path: test.info().outputPath('terminal-1280-light.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the theme switch sits in the Menu.
  await page.getByRole('button', { name: /^Menu/ }).click();
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.keyboard.press('Escape');
  await expect(screen(page)).toContainText('answer (y/s/n)');
  await page.screenshot({ path: test.info().outputPath('terminal-390-dark.png') });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await input.focus();
  await page.keyboard.type('n not from the terminal');
  await page.keyboard.press('Enter');
  await expect(screen(page)).toContainText('agent ▸ Command result: not from the terminal');

  await page.keyboard.type('demo:slow 60000');
  await page.keyboard.press('Enter');
  await expect(page.locator('header app-state-chip')).toHaveText('working');
  await page.keyboard.press('Control+c');
  await expect(screen(page)).toContainText('Interrupting the turn');
  await expect(page.locator('header app-state-chip')).toHaveText('idle');

  // Escape leaves the terminal for the page; the palette goes back into it.
  await page.keyboard.press('Escape');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Control+k');
  await page.keyboard.type('Go to the terminal');
  await page.keyboard.press('Enter');
  await expect(input).toBeFocused();

  // Ctrl-D closes it; the session goes on and the focus is back on the button.
  await page.keyboard.press('Control+d');
  await expect(region).toHaveCount(0);
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveText('Terminal');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('header app-state-chip')).toHaveText('idle');

  // The button opens it again; Ctrl-C twice closes it.
  await page.keyboard.press('Enter');
  await expect(input).toBeFocused();
  await page.keyboard.press('Control+c');
  await page.keyboard.press('Control+c');
  await expect(region).toHaveCount(0);
  await expect(page.locator('header app-state-chip')).toHaveText('idle');
});
