import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, openAt, test } from './support/fixtures';

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: 'Search commands' })).toBeFocused();
}

/** Types in the palette and runs the first command with Enter, keyboard only. */
async function runFirst(page: Page, query: string): Promise<void> {
  await openPalette(page);
  await page.keyboard.type(query);
  await expect(page.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Search commands' })).toBeHidden();
}

test('the palette reaches every page and section by name, keyboard only', async ({
  page,
  relais,
}) => {
  test.setTimeout(300_000); // eleven navigations, each through the palette
  await openAt(page, relais, '/sessions');
  const destinations: [string, RegExp, string][] = [
    ['analytics', /\/analytics/, 'Analytics'],
    ['rules', /\/rules/, 'Rules'],
    ['audit', /\/audit/, 'Audit trail'],
    ['storage', /\/storage/, 'Storage'],
    ['diagnostics', /\/diagnostics/, 'Diagnostics'],
    ['logs', /\/diagnostics/, 'Logs'],
    ['subscriptions', /\/subscriptions$/, 'Subscriptions'],
    ['subscription health', /\/diagnostics/, 'Subscriptions'],
    ['quota', /\/sessions$/, 'Quotas'],
    ['inbox', /\/inbox/, 'Inbox'],
    ['launch', /\/sessions\/new/, 'Launch a session'],
  ];
  for (const [query, url, heading] of destinations) {
    await runFirst(page, query);
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  }
  // A section command moves keyboard focus to its heading.
  await runFirst(page, 'logs');
  await expect(page.getByRole('heading', { name: 'Logs', exact: true })).toBeFocused();

  await openPalette(page);
  await page.keyboard.type('zzqx');
  await expect(page.getByRole('option')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'No command matches' })).toBeVisible();
  await expectAccessible(page, 'palette without a match');
  await page.keyboard.press('Escape');
});

test('the current page’s actions are commands, ranked by a real match', async ({
  page,
  relais,
  request,
}) => {
  const id = await relais.launch('hello from the palette journey');
  await openAt(page, relais, `/sessions/${id}`);
  await openPalette(page);
  await page.keyboard.type('stop');
  await expect(page.getByRole('option').first()).toContainText('Stop this session');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('version');
  await expect(page.getByRole('option').first()).toContainText('Agent versions');
  await expect(page.getByRole('option', { name: /Stop this session/ })).toHaveCount(0);
  await expectAccessible(page, 'palette on a conversation');
  await page.keyboard.press('Escape');

  // Audit: a filter command changes the URL, as a filter chosen by hand does.
  await runFirst(page, 'audit');
  await runFirst(page, 'only rules changes');
  await expect(page).toHaveURL(/kind=rules_change/);
  await expect(page.getByRole('combobox', { name: 'Kind' })).toContainText('Rules changes');

  // Theme: the palette switches it, and says which way.
  await runFirst(page, 'dark theme');
  await expect(page.locator('html')).toHaveClass(/theme-dark/);
  await runFirst(page, 'light theme');
  await expect(page.locator('html')).toHaveClass(/theme-light/);
  await stopSession(request, relais, id);
});

test('a deep link survives the key page', async ({ browser, relais, request }) => {
  const id = await relais.launch('a session to come back to');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(page).toHaveURL(/\/key\?next=/);
  await expect(page.getByRole('heading', { name: 'Connect to your Relais daemon' })).toBeVisible();
  await expectAccessible(page, 'key page');
  await page.getByLabel('API key').fill(relais.key);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await context.close();
  await stopSession(request, relais, id);
});

/** The journeys share one daemon whose quota admission counts running sessions: leave none behind. */
async function stopSession(
  request: APIRequestContext,
  relais: { base: string; key: string },
  id: string,
): Promise<void> {
  const stopped = await request.post(`${relais.base}/api/sessions/${id}/stop`, {
    headers: { authorization: `Bearer ${relais.key}` },
  });
  expect(stopped.ok()).toBe(true);
}
