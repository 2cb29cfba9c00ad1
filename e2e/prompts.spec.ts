import { expect, expectAccessible, test } from './support/fixtures';

test('deny with a reason: the agent quotes it', async ({ page, relais }) => {
  const id = await relais.launch("demo:bash sh -c 'echo nope'");
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  const prompt = page.getByRole('region', { name: 'Waiting for your answer' });
  await expect(prompt.getByRole('button', { name: 'Deny' })).toBeVisible();
  await prompt
    .getByRole('textbox', { name: 'Reason for denying (optional)' })
    .fill('not on this machine');
  await prompt.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByText('Command result: not on this machine')).toBeVisible();
  await expect(page.locator('app-tool-call')).toContainText('Denied');
  await expectAccessible(page, 'conversation after a denial');
});

test('answer an agent question from its options', async ({ page, relais }) => {
  const id = await relais.launch('demo:ask');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  const prompt = page.getByRole('region', { name: 'Waiting for your answer' });
  await expect(prompt.getByRole('group', { name: 'Which color?' })).toBeVisible();
  await expectAccessible(page, 'conversation with a question');
  await prompt.getByRole('radio', { name: /Blue/ }).check();
  await prompt.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(page.getByText(/You answered: .*Blue/)).toBeVisible();
});

test('two prompts in two sessions, each answered from the inbox by its own buttons', async ({
  page,
  relais,
}) => {
  const first = await relais.launch("demo:bash sh -c 'echo one'");
  const second = await relais.launch("demo:bash sh -c 'echo two'");
  await page.goto(relais.url);
  await page.getByRole('link', { name: /Inbox/ }).click();
  const cardOne = page.locator(`app-permission-card`, { hasText: "sh -c 'echo one'" });
  const cardTwo = page.locator(`app-permission-card`, { hasText: "sh -c 'echo two'" });
  await expect(cardOne).toBeVisible();
  await expect(cardTwo).toBeVisible();
  // The count of waiting prompts stays in front of the page's own title after the navigation.
  await expect(page).toHaveTitle(/^\(\d+\) Inbox · Relais$/);
  await expectAccessible(page, 'inbox with two prompts');

  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('answer the oldest');
  await page.keyboard.press('Enter');
  await expect(
    page.locator('app-permission-card').first().getByRole('button', { name: 'Allow once' }),
  ).toBeFocused();

  await cardTwo.getByRole('button', { name: 'Allow once' }).click();
  await expect(cardTwo).toHaveCount(0);
  await expect(cardOne).toBeVisible();
  await cardOne
    .getByRole('textbox', { name: 'Reason for denying (optional)' })
    .fill('one is enough');
  await cardOne.getByRole('button', { name: 'Deny' }).click();
  await expect(cardOne).toHaveCount(0);

  await page.goto(`${relais.base}/sessions/${second}`);
  await expect(page.getByText('Command result: two')).toBeVisible();
  await page.goto(`${relais.base}/sessions/${first}`);
  await expect(page.getByText('Command result: one is enough')).toBeVisible();
});

test('a wrong key leads to the key page, which accepts a paste', async ({ page, relais }) => {
  await page.goto(`${relais.base}/#key=not-the-key`);
  await expect(page.getByRole('heading', { name: 'Connect to your Relais daemon' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('refused');
  await expect(page.getByText('$RELAIS_HOME/api-key')).toBeVisible();
  await expectAccessible(page, 'key page');
  await page.getByRole('textbox', { name: 'API key' }).fill(relais.key);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
});
