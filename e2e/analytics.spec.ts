import { parseCsv } from '../daemon/src/testing/csv';
import type { APIRequestContext, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expect, expectAccessible, openAt, test, type Relais } from './support/fixtures';

const SONNET = 'claude-sonnet-4-5';

interface Turn {
  id: number;
  session_id: string;
  model: string;
  app: string;
}

function auth(relais: Relais): Record<string, string> {
  return { Authorization: `Bearer ${relais.key}` };
}

async function launch(
  request: APIRequestContext,
  relais: Relais,
  app: string,
  model: string,
  prompt: string,
): Promise<string> {
  const response = await request.post(`${relais.base}/api/sessions`, {
    headers: auth(relais),
    data: {
      subscription_id: 'demo',
      model,
      cwd: relais.cwd,
      permission_mode: 'write',
      ttl_seconds: 900,
      prompt,
      app,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function turnsVia(
  request: APIRequestContext,
  relais: Relais,
  query: Record<string, string>,
): Promise<Turn[]> {
  const response = await request.get(`${relais.base}/api/analytics/turns`, {
    headers: auth(relais),
    params: { ...query, limit: '500' },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: Turn[] }).items;
}

function tile(page: Page, label: string) {
  return page.locator(`[data-tile="${label}"] .value`);
}

async function pick(page: Page, filter: string, option: string): Promise<void> {
  await page.locator(`mat-select[data-filter="${filter}"]`).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

test('filter by model and app, figures change, back works, CSV export holds exactly the turns shown', async ({
  page,
  request,
  relais,
}) => {
  const tag = Date.now().toString(36);
  const alpha = `an-alpha-${tag}`;
  const beta = `an-beta-${tag}`;
  // A console open on the dashboard: prompts need a listener, and the quota cards show there.
  await openAt(page, relais);

  await launch(request, relais, alpha, 'default', 'hello');
  await launch(request, relais, beta, SONNET, 'hello');
  const bash = await launch(request, relais, alpha, SONNET, 'demo:bash touch x');
  await expect
    .poll(
      async () => {
        const response = await request.get(`${relais.base}/api/permissions`, {
          headers: auth(relais),
          params: { session: bash },
        });
        const items = (
          (await response.json()) as { items: { id: string; state: string }[] }
        ).items.filter((p) => p.state === 'pending');
        for (const p of items) {
          await request.post(`${relais.base}/api/permissions/${p.id}/decision`, {
            headers: auth(relais),
            data: { decision: 'allow' },
          });
        }
        return (await turnsVia(request, relais, { app: `${alpha},${beta}` })).length;
      },
      { message: 'three turns recorded' },
    )
    .toBe(3);

  await page.goto(`${relais.base}/analytics?app=${alpha},${beta}`);
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(tile(page, 'Turns')).toHaveText('3');
  await expect(tile(page, 'Sessions')).toHaveText('3');
  await expect(page.locator('[data-tile="Estimated cost"]')).toContainText('estimate');
  await expect(page.locator('app-chart-card .chart[data-rendered="true"]').first()).toBeVisible();
  await expect(
    page.getByRole('cell', { name: 'Bash' }).or(page.getByRole('rowheader', { name: 'Bash' })),
  ).toBeVisible();
  await expectAccessible(page, 'analytics, two apps');

  // Filter by model through the bar: the URL and the figures follow.
  await pick(page, 'model', SONNET);
  await expect(page).toHaveURL(new RegExp(`model=${SONNET}`));
  await expect(tile(page, 'Turns')).toHaveText('2');
  // Then by app: only alpha.
  await page.locator('mat-select[data-filter="app"]').click();
  await page.getByRole('option', { name: beta, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`app=${alpha}(&|$)`));
  await expect(tile(page, 'Turns')).toHaveText('1');
  await expect(tile(page, 'Estimated cost')).toHaveText(/^\$\d/);

  // The back button steps back through the filters; forward again.
  await page.goBack();
  await expect(tile(page, 'Turns')).toHaveText('2');
  await page.goForward();
  await expect(tile(page, 'Turns')).toHaveText('1');
  await page.goBack();
  await expect(tile(page, 'Turns')).toHaveText('2');

  // Every chart has its table: the same data, as text.
  const tokens = page.getByRole('region', { name: 'Tokens over time' });
  await tokens.getByRole('button', { name: 'Show as table' }).click();
  await expect(tokens.getByRole('button', { name: 'Show as table' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(tokens.getByRole('table')).toBeVisible();
  await expectAccessible(page, 'analytics, model filter, tokens as a table');

  // Export CSV of this scope: its rows are the turns the page shows and the API lists.
  const shown = page.locator('app-turns-table tbody tr[data-turn-id]');
  await expect(shown).toHaveCount(2);
  const shownIds = (
    await shown.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-turn-id'))))
  ).sort();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const [header, ...rows] = parseCsv(readFileSync(file, 'utf8')).filter((r) => r.length > 1);
  const col = (name: string): number => header!.indexOf(name);
  expect(col('id')).toBeGreaterThanOrEqual(0);
  const exported = rows.map((r) => ({
    id: Number(r[col('id')]),
    model: r[col('model')],
    app: r[col('app')],
  }));
  expect(exported.map((r) => r.id).sort()).toEqual(shownIds);
  expect(exported.every((r) => r.model === SONNET && (r.app === alpha || r.app === beta))).toBe(
    true,
  );
  const viaApi = await turnsVia(request, relais, { model: SONNET, app: `${alpha},${beta}` });
  expect(viaApi.map((t) => t.id).sort()).toEqual(shownIds);
});
