import { expect, expectAccessible, openAt, test } from './support/fixtures';

test('the live tester shows the daemon refusing git push --force, with its rule and report', async ({
  page,
  relais,
}) => {
  await openAt(page, relais, '/rules');
  await expect(page.getByRole('heading', { name: 'Rules', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Commands/ })).toBeVisible();
  await page.getByRole('textbox', { name: 'Command' }).fill('git push --force');
  const verdict = page.getByTestId('verdict');
  await expect(verdict.locator('.chip')).toHaveText('deny');
  await expect(verdict).toContainText('git-push-force');
  await expect(verdict).toContainText('Do not work around this rule');
  await page.getByRole('textbox', { name: 'Command' }).fill('git push --force-with-lease');
  await expect(verdict.locator('.chip')).not.toHaveText('deny');
  await expectAccessible(page, 'rules page with a tester answer');
});

test('an invalid rule is refused with its line, and the rules in force stay', async ({
  page,
  relais,
  request,
}) => {
  const headers = { Authorization: `Bearer ${relais.key}` };
  const before = (await (await request.get(`${relais.base}/api/rules`, { headers })).json()) as {
    version: number;
  };
  await openAt(page, relais, '/rules');
  await page.getByRole('button', { name: 'Add a Commands rule' }).click();
  const editor = page.getByRole('form', { name: 'Add a rule' });
  await editor.getByRole('textbox', { name: 'Id' }).fill('e2e-broken');
  await editor.getByRole('textbox', { name: 'Pattern (regular expression)' }).fill('(unclosed');
  await editor
    .getByRole('textbox', { name: 'Reason (sent back to the agent)' })
    .fill('a broken pattern');
  await editor.getByRole('button', { name: 'Save rule' }).click();
  const alert = editor.getByRole('alert');
  await expect(alert).toContainText(/at line \d+ of the rules file/);
  await expect(alert).toContainText('not a valid regular expression');
  await expectAccessible(page, 'rule editor with a refusal');
  const after = (await (await request.get(`${relais.base}/api/rules`, { headers })).json()) as {
    version: number;
    rules: { id: string }[];
  };
  expect(after.version).toBe(before.version);
  expect(after.rules.map((r) => r.id)).not.toContain('e2e-broken');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);
});

test('add a rule, move it with the keyboard, delete it', async ({ page, relais, request }) => {
  const headers = { Authorization: `Bearer ${relais.key}` };
  const ids = async (): Promise<string[]> =>
    (
      (await (await request.get(`${relais.base}/api/rules`, { headers })).json()) as {
        rules: { id: string; kind: string }[];
      }
    ).rules
      .filter((r) => r.kind === 'bash')
      .map((r) => r.id);
  await openAt(page, relais, '/rules');
  await page.getByRole('button', { name: 'Add a Commands rule' }).click();
  const editor = page.getByRole('form', { name: 'Add a rule' });
  await editor.getByRole('textbox', { name: 'Id' }).fill('e2e-marker');
  await editor.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'ask' }).click();
  await editor
    .getByRole('textbox', { name: 'Pattern (regular expression)' })
    .fill('^relais-e2e-marker\\b');
  await editor
    .getByRole('textbox', { name: 'Reason (sent back to the agent)' })
    .fill('only a test');
  await editor.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Rule e2e-marker added' })).toBeVisible();
  const added = await ids();
  expect(added.at(-1)).toBe('e2e-marker');

  const row = page.getByRole('listitem', { name: /: e2e-marker$/ });
  await row.focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(
    page.getByRole('status').filter({ hasText: `moved to position ${added.length - 1}` }),
  ).toBeVisible();
  expect((await ids()).slice(-2)).toEqual(['e2e-marker', added.at(-2)]);
  await expect(page.getByRole('listitem', { name: /: e2e-marker$/ })).toBeFocused();

  await page.getByRole('button', { name: 'Delete e2e-marker' }).click();
  await expect(page.getByRole('button', { name: 'Undo delete' })).toBeVisible();
  expect(await ids()).not.toContain('e2e-marker');
  expect(await ids()).toEqual(added.slice(0, -1));
});

test('rules saved by another tool meanwhile: the console says so, shows them, and undoes nothing', async ({
  page,
  relais,
  request,
}) => {
  const headers = { Authorization: `Bearer ${relais.key}` };
  const read = async () =>
    (await (await request.get(`${relais.base}/api/rules`, { headers })).json()) as {
      version: number;
      rules: { id: string; kind: string }[];
    };
  await openAt(page, relais, '/rules');
  const first = (await read()).rules.find((r) => r.kind === 'bash')!;
  await expect(page.getByRole('button', { name: `Delete ${first.id}` })).toBeVisible();

  // Another tool saves a set with one rule more while the page shows the set it read.
  const before = await read();
  const marker = {
    id: 'other-tool-rule',
    kind: 'bash',
    pattern: '^relais-other-tool\\b',
    action: 'deny',
    reason: 'saved by another tool',
  };
  const put = await request.put(`${relais.base}/api/rules`, {
    headers,
    data: { version: before.version, rules: [...before.rules, marker] },
  });
  expect(put.status()).toBe(200);

  await page.getByRole('button', { name: `Delete ${first.id}` }).click();
  await expect(page.getByRole('alert')).toContainText('saved elsewhere meanwhile');
  await expect(page.getByRole('alert')).toContainText('rules_changed');
  await page.screenshot({ path: 'test-results/rules-saved-elsewhere.png' });
  await expect(page.getByRole('button', { name: 'Delete other-tool-rule' })).toBeVisible();
  const after = await read();
  expect(after.rules.map((r) => r.id)).toContain(first.id);
  expect(after.rules.map((r) => r.id)).toContain('other-tool-rule');

  // Made again on the set as it is now, the change goes through and keeps the other tool's rule.
  await page.getByRole('button', { name: `Delete ${first.id}` }).click();
  await expect(page.getByRole('button', { name: 'Undo delete' })).toBeVisible();
  const deleted = (await read()).rules.map((r) => r.id);
  expect(deleted).not.toContain(first.id);
  expect(deleted).toContain('other-tool-rule');
  await page.getByRole('button', { name: 'Undo delete' }).click();
  await expect(page.getByRole('button', { name: `Delete ${first.id}` })).toBeVisible();
  const reset = await request.put(`${relais.base}/api/rules`, {
    headers,
    data: { rules: before.rules },
  });
  expect(reset.status()).toBe(200);
});
