import { expect, expectAccessible, test } from './support/fixtures';

test('queue: drag an entry to the top, delete another, the order holds on the daemon', async ({
  page,
  relais,
  request,
}) => {
  const id = await relais.launch('demo:slow 20000');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(page.locator('header app-state-chip')).toHaveText('working');

  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await expect(page.getByText(/Will be queued/)).toBeVisible();
  for (const text of ['alpha', 'beta', 'gamma']) {
    await composer.fill(text);
    await composer.press('Enter');
  }
  const entries = page.getByRole('region', { name: /Queue/ }).locator('li.entry');
  await expect(entries).toHaveText([/alpha/, /beta/, /gamma/]);

  const from = await entries.nth(2).locator('.handle').boundingBox();
  const to = await entries.nth(0).boundingBox();
  if (!from || !to) throw new Error('queue entries are not laid out');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(from.x + from.width / 2, to.y + 2, { steps: 10 });
  await page.mouse.up();
  await expect(entries).toHaveText([/gamma/, /alpha/, /beta/]);

  await entries.nth(1).focus();
  await page.keyboard.press('Delete');
  await expect(entries).toHaveText([/gamma/, /beta/]);
  // The focus stays in the queue, on the entry that took the deleted one's place.
  await expect(entries.nth(1)).toBeFocused();
  await expectAccessible(page, 'queue after drag and delete');

  const response = await request.get(`${relais.base}/api/sessions/${id}/queue`, {
    headers: { Authorization: `Bearer ${relais.key}` },
  });
  const body = (await response.json()) as { items: { text: string }[] };
  expect(body.items.map((item) => item.text)).toEqual(['gamma', 'beta']);
  await page.getByRole('button', { name: 'Stop…' }).click();
  await page.getByRole('button', { name: 'Stop session' }).click();
  await expect(page.locator('header app-state-chip')).toHaveText('ended', { timeout: 30_000 });
});
