import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, type RunningDaemon } from './support/daemon';
import { expect, expectAccessible, test } from './support/fixtures';

/** A daemon of its own: this journey adds and deletes subscriptions. */
let daemon: RunningDaemon;
test.beforeAll(async () => {
  daemon = await startDaemon();
});
test.afterAll(async () => {
  await daemon?.stop();
});

async function palette(page: Page, command: string): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.keyboard.type(command);
  await expect(page.getByRole('option').first()).toContainText(command);
  await page.keyboard.press('Enter');
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

test('subscriptions: add Claude and Codex, see what detection found and a shared account, rename, delete; keyboard only', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await page.goto(daemon.url);
  await expect(page.getByRole('heading', { name: 'Sessions', exact: true })).toBeVisible();
  await palette(page, 'Subscriptions');
  await expect(page).toHaveURL(/\/subscriptions$/);
  await expect(page.getByRole('heading', { name: 'Subscriptions', level: 1 })).toBeVisible();

  // The built-in demos say they cannot be renamed or deleted, and offer neither.
  const demo = card(page, 'Demo (scripted model)');
  await expect(demo).toContainText('Built in: it cannot be renamed or deleted.');
  await expect(demo.getByRole('button', { name: /Delete|Rename/ })).toHaveCount(0);
  const refused = await request.delete(`${daemon.base}/api/subscriptions/demo`, {
    headers: { Authorization: `Bearer ${daemon.key}` },
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error_code).toBe('builtin_subscription');

  // Bad input is refused, with the daemon's reason.
  await palette(page, 'Add a subscription');
  await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('Inside');
  await page.keyboard.press('Tab');
  await page.keyboard.type('relative/folder');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Use an absolute path (starting with /).')).toBeVisible();
  await page.getByRole('textbox', { name: 'Configuration folder' }).fill(daemon.home);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText(/data folder.*invalid_config_dir/);

  // A Claude subscription: added, then detected at once.
  const workFolder = mkdtempSync(join(tmpdir(), 'relais-e2e-claude-'));
  await page.getByRole('textbox', { name: 'Name' }).focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Work');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+a');
  await page.keyboard.type(workFolder);
  await page.keyboard.press('Enter');
  const work = card(page, 'Work');
  await expect(work.getByRole('list', { name: 'Models of Work' })).toContainText(
    'Default (recommended)',
    { timeout: 60_000 },
  );
  await expect(work).toContainText('efforts: low, medium, high');
  await expect(work.getByRole('definition').first()).toBeVisible();

  // A Codex subscription: the agent is chosen with the arrow keys.
  await palette(page, 'Add a subscription');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Codex' })).toBeChecked();
  await expect(page.getByText('CODEX_HOME=<folder> codex login')).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.type('Codex work');
  await page.keyboard.press('Tab');
  await page.keyboard.type(mkdtempSync(join(tmpdir(), 'relais-e2e-codex-')));
  await page.keyboard.press('Enter');
  const codex = card(page, 'Codex work');
  await expect(codex).toContainText('Codex');
  // The date in the browser's format (one time format everywhere), the year in it.
  await expect(codex).toContainText(/Detected \D*\d.*\d{4}/, { timeout: 90_000 });

  // Two subscriptions on one account are flagged, by name, on both.
  const home = await request.post(`${daemon.base}/api/subscriptions`, {
    headers: { Authorization: `Bearer ${daemon.key}` },
    data: { name: 'Home', config_dir: mkdtempSync(join(tmpdir(), 'relais-e2e-home-')) },
  });
  const homeId = ((await home.json()) as { id: string }).id;
  const workId = await work.getAttribute('data-subscription');
  const db = new Database(join(daemon.home, 'relais.db'));
  db.prepare('UPDATE subscriptions SET account_key = ? WHERE id IN (?, ?)').run(
    'same-account',
    workId,
    homeId,
  );
  db.close();
  await page.reload();
  await expect(work).toContainText('Shares its account with Home');
  await expect(card(page, 'Home')).toContainText('Shares its account with Work');
  await expectAccessible(page, 'subscriptions page');

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({
        path: test.info().outputPath(`subscriptions-${width}-${scheme}.png`),
        fullPage: true,
      });
    }
  }
  await expectAccessible(page, 'subscriptions page at 390 px, dark');
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Rename by keyboard: Enter opens the field, Escape cancels, Enter saves; the focus comes back.
  await work.getByRole('button', { name: 'Rename Work' }).focus();
  await page.keyboard.press('Enter');
  const nameField = work.getByRole('textbox', { name: 'New name for Work' });
  await expect(nameField).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(work.getByRole('button', { name: 'Rename Work' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(nameField).toBeFocused();
  await page.keyboard.type('Work (team)');
  await page.keyboard.press('Enter');
  const renamed = card(page, 'Work (team)');
  await expect(renamed.getByRole('button', { name: 'Rename Work (team)' })).toBeFocused();
  await expect(card(page, 'Home')).toContainText('Shares its account with Work (team)');

  // Delete asks first; Cancel keeps it, the explicit button deletes it.
  await card(page, 'Home').getByRole('button', { name: 'Delete Home' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete the subscription Home?' });
  await expect(dialog).toContainText('stay on disk');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page, 'delete confirmation');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(card(page, 'Home')).toBeVisible();
  await page.keyboard.press('Enter');
  // The dialog opens on Cancel: a stray Enter deletes nothing.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete subscription' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card(page, 'Home')).toHaveCount(0);
  await expect(renamed).not.toContainText('Shares its account');

  // The quota cards of the dashboard are titled with the subscriptions' names.
  await palette(page, 'Sessions');
  await expect(
    page.locator('app-quota-cards article[data-subscription="demo"]').getByRole('heading', {
      name: 'Demo (scripted model)',
    }),
  ).toBeVisible();
});
