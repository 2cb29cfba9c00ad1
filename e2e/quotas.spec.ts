import { startDaemon, type RunningDaemon } from './support/daemon';
import { expect, expectAccessible, test } from './support/fixtures';

/**
 * A daemon of its own, whose readings turn stale after 2 s (RELAIS_QUOTA_STALE_SECONDS, read by
 * daemon/src/quotas/quota-config.ts) while the next poll is minutes away: the demo subscription's
 * windows go from fresh to stale without any other change.
 */
let daemon: RunningDaemon;
test.beforeAll(async () => {
  daemon = await startDaemon({
    env: {
      RELAIS_QUOTA_STALE_SECONDS: '2',
      RELAIS_QUOTA_POLL_SECONDS: '600',
      RELAIS_QUOTA_DEMO_POLL_SECONDS: '600',
    },
  });
});
test.afterAll(async () => {
  await daemon?.stop();
});

test('quota cards on the dashboard: percentages, countdown, read age, and a stale reading shown as stale', async ({
  page,
}) => {
  await page.goto(daemon.url);
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  const card = page.locator('app-quota-cards article[data-subscription="demo"]');
  await expect(card.getByRole('heading', { name: 'Demo (scripted model)' })).toBeVisible();
  const fiveHour = card.locator('[data-window="five_hour"]');
  await expect(fiveHour).toContainText('5-hour window');
  await expect(fiveHour).toContainText(/resets in \d/);
  await expect(fiveHour).toContainText(/read (just now|\d+ min ago)/);

  // Once older than the threshold, the reading is stale: said in words, with an icon, figure kept.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh quotas' }).click();
    await expect(fiveHour).toHaveAttribute('data-status', 'stale', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(fiveHour.locator('.status-text')).toHaveText(
    /^Stale: read (just now|\d+ min ago), may be out of date$/,
  );
  await expect(fiveHour.locator('svg.icon')).toBeVisible();
  const meter = fiveHour.getByRole('meter');
  await expect(meter).toHaveAttribute('aria-valuetext', /^\d+ %, stale$/);
  await expect(fiveHour.locator('.percent')).toHaveText(/^\d+ %$/);
  await expect(fiveHour.locator('.percent')).not.toHaveText('0 %');
  await expectAccessible(page, 'dashboard with stale quotas');
});
