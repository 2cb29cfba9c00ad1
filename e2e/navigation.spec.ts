import { expect, expectAccessible, openAt, test } from './support/fixtures';

test('links are links: a modified click opens a new tab, a plain one stays in the page, Back and Forward follow', async ({
  context,
  page,
  relais,
}) => {
  const id = await relais.launch('navigation journey: a session to link to');
  await openAt(page, relais);
  const link = page.locator(`a[href="/sessions/${id}"]`).first();
  await expect(link).toBeVisible();

  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    link.click({ modifiers: ['Control'] }),
  ]);
  await expect(tab).toHaveURL(new RegExp(`/sessions/${id}$`));
  await expect(tab.getByRole('textbox', { name: 'Message to the agent' })).toBeVisible();
  await tab.close();
  await expect(page).toHaveURL(/\/sessions$/);

  // A plain click navigates without loading the page again: the shell's state survives.
  await page.evaluate(() => ((window as unknown as { kept: number }).kept = 1));
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await expect(page).toHaveTitle(/Relais/);
  expect(await page.evaluate(() => (window as unknown as { kept?: number }).kept)).toBe(1);

  // Keyboard only: the rail's link takes Enter, and says which page is shown.
  const audit = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' });
  await audit.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/audit$/);
  await expect(audit).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle('Audit trail · Relais');
  await expectAccessible(page, 'audit after a keyboard navigation');

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await expect(audit).not.toHaveAttribute('aria-current', 'page');
  await page.goForward();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
});

test('an address that names no page leads to the sessions, whatever its spelling', async ({
  page,
  relais,
}) => {
  await openAt(page, relais);
  for (const path of ['/no-such-page', '/Sessions', '/sessions/a/b', '/inbox/extra?x=1']) {
    await page.goto(relais.base + path);
    await expect(page, path).toHaveURL(/\/sessions$/);
    await expect(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  }
});
