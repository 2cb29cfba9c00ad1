import type { APIRequestContext, Page } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeRegistry, type FakeRegistry } from '../fakes/npm-registry/server';
import { startDaemon, type RunningDaemon } from './support/daemon';
import { expect, expectAccessible, test } from './support/fixtures';

const CODEX_PINNED = (
  JSON.parse(readFileSync('node_modules/@openai/codex/package.json', 'utf8')) as { version: string }
).version;

// This file runs its own daemon: it asks a fake registry through npm_config_registry, and its
// journeys brake and suspend the demo subscription, which must not slow the other files down.
let registry: FakeRegistry;
let daemon: RunningDaemon;
const cwd = mkdtempSync(join(tmpdir(), 'relais-e2e-diag-'));

test.beforeAll(async () => {
  registry = await startFakeRegistry();
  registry.latest.set('@anthropic-ai/claude-code', '99.0.0');
  registry.latest.set('@openai/codex', CODEX_PINNED);
  daemon = await startDaemon({ env: { npm_config_registry: registry.url } });
});

test.afterAll(async () => {
  await daemon?.stop();
  await registry?.close();
});

const auth = (): Record<string, string> => ({ Authorization: `Bearer ${daemon.key}` });

async function open(page: Page, path: string): Promise<void> {
  await page.goto(daemon.url);
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  await page.goto(daemon.base + path);
}

async function launch(
  request: APIRequestContext,
  prompt: string | null,
  app: string,
): Promise<{ status: number; body: { id?: string; retry_after_seconds?: number } }> {
  const response = await request.post(`${daemon.base}/api/sessions`, {
    headers: auth(),
    data: {
      subscription_id: 'demo',
      model: 'default',
      cwd,
      permission_mode: 'write',
      ttl_seconds: 900,
      app,
      ...(prompt ? { prompt } : {}),
    },
  });
  return {
    status: response.status(),
    body: (await response.json()) as { id?: string; retry_after_seconds?: number },
  };
}

async function demo(request: APIRequestContext): Promise<{
  status: string;
  last_error: string | null;
  consecutive_failed_starts: number;
  next_wait_seconds: number;
}> {
  return (await (
    await request.get(`${daemon.base}/api/subscriptions/demo`, { headers: auth() })
  ).json()) as {
    status: string;
    last_error: string | null;
    consecutive_failed_starts: number;
    next_wait_seconds: number;
  };
}

test('diagnostics at a glance, and a version card saying "not yet validated" against the fake registry', async ({
  page,
}) => {
  await open(page, '/diagnostics');
  await expect(page.getByRole('heading', { name: 'Diagnostics' })).toBeVisible();
  const engine = page.getByRole('region', { name: 'Engine' });
  await expect(engine).toContainText(/Node\.js\s*v\d+/);
  const processCard = page.getByRole('region', { name: 'Process' });
  await expect(processCard).toContainText(String(new URL(daemon.base).port));
  // This machine gives the daemon a cgroup v2: every session is contained in one.
  await expect(processCard).toContainText('A cgroup per session');

  const versions = page.getByRole('region', { name: 'Agent versions' });
  await versions.getByRole('button', { name: 'Refresh' }).click();
  const card = versions.getByRole('article', { name: /claude/ });
  await expect(card.getByTestId('latest')).toHaveText('99.0.0');
  await expect(card.getByText('Not yet validated')).toBeVisible();
  expect(registry.requests).toContain('@anthropic-ai/claude-code');
  const codex = versions.getByRole('article', { name: /codex/ });
  await expect(codex.getByTestId('pinned')).toHaveText(CODEX_PINNED);
  await expect(codex.getByText('Up to date')).toBeVisible();

  const logs = page.getByRole('region', { name: 'Logs' });
  await expect(
    logs
      .getByRole('list', { name: 'Log lines, newest first' })
      .or(logs.getByText('No log line matches')),
  ).toBeVisible();
  await logs.getByRole('switch', { name: 'Live tail' }).click();
  await expect(logs.getByText('following')).toBeVisible();
  await expectAccessible(page, 'diagnostics page');
});

test('a braked launch shows its wait in the launch form, before Launch too', async ({
  page,
  request,
}) => {
  // A daemon of its own with a small burst and a slow refill, so that the brake is certain to
  // hold when the form launches (the daemon tests check the real 20-in-a-row figure).
  const braking = await startDaemon({
    env: { RELAIS_LAUNCH_BURST: '2', RELAIS_LAUNCH_INTERVAL_MS: '60000' },
  });
  const headers = { Authorization: `Bearer ${braking.key}` };
  try {
    await page.goto(braking.url);
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    await page.goto(braking.base + '/sessions/new');
    await page.getByRole('button', { name: 'Detect models' }).click();
    await expect(page.getByRole('button', { name: 'Detect models' })).toBeEnabled();
    await page.getByRole('combobox', { name: 'Model' }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('textbox', { name: 'Working directory' }).fill(cwd);

    // Spend the subscription's burst from another application.
    const started: string[] = [];
    for (let i = 0; i < 2; i++) {
      const response = await request.post(`${braking.base}/api/sessions`, {
        headers,
        data: {
          subscription_id: 'demo',
          model: 'default',
          cwd,
          permission_mode: 'write',
          ttl_seconds: 900,
          app: 'e2e-brake',
        },
      });
      expect(response.status()).toBe(201);
      started.push(((await response.json()) as { id: string }).id);
    }
    const refused = page.waitForResponse(
      (r) => r.url().endsWith('/api/sessions') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    const answer = await refused;
    const answeredAt = Date.now();
    expect(answer.status()).toBe(429);
    expect(Number(answer.headers()['retry-after'])).toBeGreaterThan(0);
    await expect(page.getByRole('alert')).toContainText(
      /Too many launches in a row\.\s+(Try again in \d+ s\.|You can try again now\.)/,
    );
    await expectAccessible(page, 'launch form braked');

    // Opened anew, the form says the brake before any Launch, with the refusal's wait.
    await page.goto(braking.base + '/sessions/new');
    const notice = page.locator('.brake-notice');
    await expect(notice).toContainText(/the next launch is possible in \d+ s/);
    const shown = Number(/(\d+) s/.exec((await notice.textContent()) ?? '')![1]);
    // The same wait as the refusal's, counted down by the time it took to open the form again.
    const left = Number(answer.headers()['retry-after']) - (Date.now() - answeredAt) / 1000;
    expect(Math.abs(shown - left)).toBeLessThanOrEqual(2);
    await expect(page.getByRole('button', { name: 'Launch', exact: true })).toBeDisabled();
    await expectAccessible(page, 'launch form braked before Launch');
    await Promise.all(
      started.map((id) =>
        request.post(`${braking.base}/api/sessions/${id}/stop`, { headers, data: {} }),
      ),
    );
  } finally {
    await braking.stop();
  }
});

test('three failed starts suspend the subscription: the reason shows, and Retry reopens it', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  for (let i = 1; i <= 3; i++) {
    let answer = await launch(request, 'demo:error 401', 'e2e-suspension');
    // The previous journey spent the burst: wait as the daemon says, then launch again.
    while (answer.status === 429) {
      await page.waitForTimeout((answer.body.retry_after_seconds ?? 3) * 1000);
      answer = await launch(request, 'demo:error 401', 'e2e-suspension');
    }
    expect(answer.status).toBe(201);
    await expect
      .poll(async () => (await demo(request)).consecutive_failed_starts, { timeout: 30_000 })
      .toBe(i);
  }
  const suspended = await demo(request);
  expect(suspended.status).toBe('suspended');

  await open(page, '/sessions/new');
  await page.getByRole('button', { name: 'Detect models' }).click();
  await expect(page.getByRole('button', { name: 'Detect models' })).toBeEnabled();
  await page.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option').first().click();
  await page.getByRole('textbox', { name: 'Working directory' }).fill(cwd);
  // The form says so before Launch, with the wait a launch would be told.
  const notice = page.getByRole('status').filter({ hasText: 'is suspended since' });
  await expect(notice).toContainText(`wait ${suspended.next_wait_seconds} s`);
  await page.getByRole('button', { name: 'Launch', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('This subscription is suspended');
  await expect(page.getByRole('alert')).toContainText(suspended.last_error!);
  // The refusal doubled the wait: the form shows the figure the Diagnostics page shows.
  const after = await demo(request);
  await expect(notice).toContainText(`wait ${after.next_wait_seconds} s`);

  await page.getByRole('link', { name: 'Diagnostics', exact: true }).click();
  const section = page.getByRole('region', { name: 'Subscriptions' });
  const item = section.getByRole('listitem', { name: /^Demo \(scripted model\)/ });
  await expect(item.getByText('suspended', { exact: true })).toBeVisible();
  await expect(item).toContainText(`Last error: ${suspended.last_error}`);
  await expect(item).toContainText(`told to wait ${after.next_wait_seconds} s`);
  await expectAccessible(page, 'diagnostics with a suspended subscription');
  await item.getByRole('button', { name: /^Retry/ }).click();
  await expect(item.getByText('active', { exact: true })).toBeVisible();
  await expect(section.getByRole('status')).toContainText('reopened');
  expect((await demo(request)).status).toBe('active');
});
