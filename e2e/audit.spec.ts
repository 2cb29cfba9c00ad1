import { readFileSync } from 'node:fs';
import { expect, expectAccessible, openAt, test } from './support/fixtures';

test('filter the audit trail and export exactly that scope as CSV and JSON', async ({
  page,
  relais,
  request,
}) => {
  const headers = { Authorization: `Bearer ${relais.key}`, 'X-Relais-App': 'e2e-audit' };
  // Saving the rules unchanged is audited as a rules change: an entry this test can count on.
  const rules = (await (await request.get(`${relais.base}/api/rules`, { headers })).json()) as {
    rules: unknown[];
  };
  expect(
    (
      await request.put(`${relais.base}/api/rules`, { headers, data: { rules: rules.rules } })
    ).status(),
  ).toBe(200);

  await openAt(page, relais, '/audit');
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Rules changes' }).click();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('cell', { name: 'e2e-audit' }).first()).toBeVisible();
  await expect(table.locator('tbody .chip').filter({ hasNotText: 'saved' })).toHaveCount(0);
  await expectAccessible(page, 'audit trail filtered');

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe('relais-audit.csv');
  const lines = readFileSync(await csv.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toMatch(/^id,time,kind,/);
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines.slice(1)) expect(line).toContain(',rules_change,');

  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = await jsonDownload;
  expect(json.suggestedFilename()).toBe('relais-audit.json');
  const entries = JSON.parse(readFileSync(await json.path(), 'utf8')) as {
    kind: string;
    decided_by: string;
  }[];
  expect(entries.length).toBe(lines.length - 1);
  expect(entries.every((e) => e.kind === 'rules_change')).toBe(true);
  expect(entries.some((e) => e.decided_by === 'e2e-audit')).toBe(true);
});
