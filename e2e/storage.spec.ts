// The console's formats are $localize messages: the English source outside a build.
import '@angular/localize/init';
import { StorageReport } from '../contract/operations';
import { exactBytes } from '../src/app/shared/bytes';
import { expect, expectAccessible, openAt, test } from './support/fixtures';

test('the storage page shows the numbers of the API, and compresses then deletes an ended conversation', async ({
  page,
  relais,
  request,
}) => {
  const headers = { Authorization: `Bearer ${relais.key}` };
  const id = await relais.launch('hello from the storage journey');
  const state = async (): Promise<string> =>
    (
      (await (await request.get(`${relais.base}/api/sessions/${id}`, { headers })).json()) as {
        state: string;
      }
    ).state;
  await expect.poll(state, { timeout: 30_000 }).toBe('idle');
  await request.post(`${relais.base}/api/sessions/${id}/stop`, { headers, data: {} });
  await expect.poll(state, { timeout: 30_000 }).toBe('ended');

  await openAt(page, relais, '/sessions');
  const answered = page.waitForResponse(
    (r) => r.url().includes('/api/storage?') && r.request().method() === 'GET',
  );
  await page.getByRole('link', { name: 'Storage', exact: true }).click();
  const report = StorageReport.parse(await (await answered).json());
  await expect(page.getByRole('heading', { name: 'Storage' })).toBeVisible();

  for (const category of report.categories) {
    await expect(page.locator(`tr[data-category="${category.category}"] td.mono`)).toHaveText(
      exactBytes(category.bytes),
    );
  }
  expect(report.categories.reduce((sum, c) => sum + c.bytes, 0)).toBe(report.total_bytes);
  await expect(page.locator('tfoot td.mono')).toHaveText(exactBytes(report.total_bytes));
  for (const sub of report.by_subscription) {
    await expect(
      page.locator(`tr[data-subscription="${sub.subscription_id}"] td`).first(),
    ).toHaveText(String(sub.conversations));
  }
  await expect(page.locator('tbody tr[data-session]')).toHaveCount(report.conversations.length);
  await expectAccessible(page, 'storage page');

  const row = page.locator(`tr[data-session="${id}"]`);
  await row.getByRole('button', { name: `Compress now ${id}` }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Conversation ${id} compressed.` }),
  ).toBeVisible();
  await expect(row.locator('.chip')).toHaveText('compressed');

  await row.getByRole('button', { name: `Delete now ${id}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this conversation?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'delete confirmation');
  await dialog.getByRole('button', { name: 'Delete now' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Conversation ${id} deleted.` }),
  ).toBeVisible();
  const after = StorageReport.parse(
    await (await request.get(`${relais.base}/api/storage?limit=500`, { headers })).json(),
  );
  expect(after.conversations.find((c) => c.session_id === id)?.conversation ?? 'deleted').toBe(
    'deleted',
  );
});
