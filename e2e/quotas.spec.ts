import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test.describe('the launch form shows what admission weighs', () => {
  /** A daemon of its own whose demo endpoint is read every second, so a heavy session shows at once. */
  let busy: RunningDaemon;
  test.beforeAll(async () => {
    busy = await startDaemon({ env: { RELAIS_QUOTA_DEMO_POLL_SECONDS: '1' } });
  });
  test.afterAll(async () => {
    await busy?.stop();
  });

  test('the quota check before Launch, and the figures of a refusal after a session that moved the window', async ({
    page,
    request,
  }) => {
    const headers = { Authorization: `Bearer ${busy.key}` };
    const workDir = mkdtempSync(join(tmpdir(), 'relais-e2e-cwd-'));
    await page.setViewportSize({ width: 1440, height: 1100 });
    await page.goto(busy.url);
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    await page.goto(`${busy.base}/sessions/new`);
    const panel = page.locator('app-admission-panel');
    await expect(panel.getByRole('heading', { name: 'Quota check' })).toBeVisible();
    await expect(panel.locator('.headline')).toHaveText(/^A launch now would be admitted/);
    const fiveHour = panel.locator('[data-window="five_hour"]');
    await expect(fiveHour).toContainText(/Reading 24 %, read \d+ s ago/);
    await expect(fiveHour).toContainText('(prior for this plan)');
    await expect(panel).toContainText('No session has ended yet');
    if (process.env['SHOTS'])
      await page.screenshot({ path: `${process.env['SHOTS']}/launch-1440.png`, fullPage: true });

    // A session reading a large codebase: 60 000 units, 60 points of the five-hour window.
    const launched = await request.post(`${busy.base}/api/sessions`, {
      headers,
      data: {
        subscription_id: 'demo',
        model: 'default',
        cwd: workDir,
        prompt: 'demo:heavy 60000',
        app: 'e2e',
      },
    });
    expect(launched.status(), await launched.text()).toBe(201);
    const { id } = (await launched.json()) as { id: string };
    await expect
      .poll(async () => {
        const r = await request.get(`${busy.base}/api/sessions/${id}`, { headers });
        return ((await r.json()) as { turns: number }).turns;
      })
      .toBe(1);
    await request.post(`${busy.base}/api/sessions/${id}/stop`, { headers });

    await page.reload();
    await expect(panel.locator('.headline')).toHaveText(/^A launch now would be refused/, {
      timeout: 30_000,
    });
    await expect(fiveHour).toContainText(/Reading 8\d %/);
    await expect(fiveHour).toContainText(/learned from 1 session\)/);
    await page.getByLabel('Working directory').fill(workDir);
    await page.getByRole('button', { name: 'Launch' }).click();
    await expect(page.getByRole('alert')).toContainText('quota_exhausted');
    await expect(panel.getByRole('heading', { name: 'Why the launch was refused' })).toBeVisible();
    await expect(fiveHour).toContainText(/= \d+ % of 95 %/);
    await expectAccessible(page, 'launch form refused by the quota');
    if (process.env['SHOTS']) {
      await page.screenshot({ path: `${process.env['SHOTS']}/refused-1440.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 900 });
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env['SHOTS']}/refused-390.png`, fullPage: true });
    }
  });
});
