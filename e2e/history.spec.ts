import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectAccessible, openAt, test, type Relais } from './support/fixtures';
import type { APIRequestContext, Page } from '@playwright/test';
import { importDemoConversation } from './support/history';

const PROMPT = 'history journey: an outside conversation';

/**
 * A conversation "run outside Relais": a session's real transcript, copied under another
 * conversation id in the demo subscription's folder, then imported.
 */
async function outsideConversation(
  relais: Relais,
  request: APIRequestContext,
  outside: string,
): Promise<string> {
  const auth = { Authorization: `Bearer ${relais.key}` };
  const id = await relais.launch(PROMPT);
  let agentId = '';
  await expect
    .poll(async () => {
      const session = await (
        await request.get(`${relais.base}/api/sessions/${id}`, { headers: auth })
      ).json();
      agentId = session.agent_session_id ?? '';
      return session.turns;
    })
    .toBeGreaterThan(0);
  const demo = await (
    await request.get(`${relais.base}/api/subscriptions/demo`, { headers: auth })
  ).json();
  const projects = join(demo.config_dir as string, 'projects');
  const folder = readdirSync(projects).find((name) =>
    readdirSync(join(projects, name)).includes(`${agentId}.jsonl`),
  )!;
  copyFileSync(
    join(projects, folder, `${agentId}.jsonl`),
    join(projects, folder, `${outside}.jsonl`),
  );
  return (await importDemoConversation(relais, request, outside)).id;
}

async function showImported(page: Page): Promise<void> {
  await page.getByRole('combobox', { name: 'Origin' }).click();
  await page.getByRole('option', { name: /^Imported/ }).click();
}

test('history: an imported conversation is listed, opens read-only, and resumes live', async ({
  page,
  relais,
  request,
}) => {
  const importedId = await outsideConversation(
    relais,
    request,
    'f0f0f0f0-6666-4666-8666-666666666661',
  );
  await page.setViewportSize({ width: 1440, height: 900 });
  await openAt(page, relais);
  await showImported(page);
  const row = page.locator('tr', { has: page.getByText('imported', { exact: true }) }).first();
  await expect(row.getByRole('link', { name: PROMPT, exact: true })).toBeVisible();
  await expectAccessible(page, 'sessions list, imported only');

  await page.getByRole('button', { name: 'Import history' }).click();
  await expect(page.getByText(/History rescanned: \d+ transcripts/)).toBeVisible();

  await row.getByRole('link', { name: PROMPT, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${importedId}$`));
  await expect(page.getByText('imported, started before Relais')).toBeVisible();
  await expect(
    page.getByText('Started before Relais: an imported transcript has no context line.'),
  ).toBeVisible();
  await expect(page.getByText(/Read-only: this conversation was read/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message to the agent' })).toHaveCount(0);
  await expect(
    page.getByRole('log', { name: 'Conversation' }).getByText(PROMPT, { exact: true }),
  ).toBeVisible();
  await expectAccessible(page, 'imported conversation');

  // Nothing starts on one click: the folder, model and mode are shown and the mode chosen first.
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'Resume this conversation?' });
  await expect(ask.locator('#resume-folder')).not.toBeEmpty();
  await expect(ask.getByRole('radio', { name: /^Read only/ })).toBeChecked();
  await expectAccessible(page, 'resume dialog');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${importedId}$`));
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await ask.getByRole('radio', { name: /^Write/ }).check();
  await ask.getByRole('button', { name: 'Resume session' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/sessions/${importedId}$`));
  await expect(page.locator('header').getByText('write mode')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message to the agent' })).toBeVisible();
  await expect(page.locator('header app-state-chip')).toHaveText(/idle|working|starting/);
  await page.getByRole('button', { name: 'Stop…' }).click();
  await page.getByRole('button', { name: 'Stop session' }).click();
  await expect(page.locator('header app-state-chip')).toHaveText('ended', { timeout: 30_000 });
});

test('history: the imported list and conversation on a phone', async ({
  page,
  relais,
  request,
}) => {
  const importedId = await outsideConversation(
    relais,
    request,
    'f0f0f0f0-6666-4666-8666-666666666662',
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await openAt(page, relais);
  await showImported(page);
  await expect(page.getByRole('link', { name: PROMPT, exact: true }).first()).toBeVisible();
  await expectAccessible(page, 'sessions list at 390 px');
  await page.screenshot({ path: 'test-results/history-list-390.png', fullPage: true });
  await page.goto(`${relais.base}/sessions/${importedId}`);
  await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeVisible();
  await expect(page.getByText(/Read-only: this conversation was read/)).toBeVisible();
  await expectAccessible(page, 'imported conversation at 390 px');
  await page.screenshot({ path: 'test-results/history-conversation-390.png' });
});
