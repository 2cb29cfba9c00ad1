import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectAccessible, test } from './support/fixtures';

test('assistant Markdown: a table, task list, quote and highlighted code, no injected HTML', async ({
  page,
  relais,
}) => {
  const id = await relais.launch('demo:markdown');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  const answer = page.locator('app-markdown', { hasText: 'Files changed' });
  const table = answer.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['File', 'Lines', 'Status']);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('cell', { name: 'src/a.ts' })).toBeVisible();
  await expect(answer.getByRole('heading', { name: 'Files changed', level: 4 })).toBeVisible();
  await expect(answer.getByRole('checkbox')).toHaveCount(2);
  await expect(answer.getByRole('checkbox').first()).toBeChecked();
  await expect(answer.getByRole('checkbox').first()).toBeDisabled();
  await expect(answer.locator('blockquote')).toHaveText('Note: nothing was pushed.');
  const link = answer.getByRole('link', { name: 'the docs' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  // Shiki, loaded on demand under the console's CSP: the code is split into coloured tokens.
  const code = answer.locator('pre code[data-highlighted="typescript"]');
  await expect(code).toHaveText('export const answer: number = 42; // the answer\n');
  expect(await code.locator('span').count()).toBeGreaterThan(5);
  await expectAccessible(page, 'conversation with rendered Markdown');

  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const attack = await relais.launch(
    'Hi <img src=x onerror="alert(1)"> <svg onload="alert(2)"></svg> [x](javascript:alert(3)) <script>alert(4)</script>',
  );
  await page.goto(`${relais.base}/sessions/${attack}`);
  const echo = page.locator('app-markdown', { hasText: 'You said:' });
  await expect(echo).toContainText('<img src=x onerror="alert(1)">');
  await expect(echo.locator('img, svg, script, [onerror], [onload]')).toHaveCount(0);
  await expect(echo.locator('a[href]')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('refusals by a rule and by the mode read as what they are, the rule linked', async ({
  page,
  relais,
}) => {
  const id = await relais.launch('demo:bash rm -rf build');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  const call = page.locator('app-tool-call', { hasText: '$ rm -rf build' });
  await expect(call).toContainText('Refused by rule rm-recursive-or-forced');
  await expect(call).toContainText('refused by a rule');
  await expect(call.getByText(/PreToolUse/)).toBeHidden();
  await expect(call.locator('.result.error')).toHaveCount(0);
  await expectAccessible(page, 'conversation with a refusal by rule');
  await call.getByRole('link', { name: 'rm-recursive-or-forced' }).click();
  await expect(page.getByRole('heading', { name: 'Rules', level: 1 })).toBeVisible();
  await expect(page.locator('li[data-rule-id="rm-recursive-or-forced"]')).toBeFocused();

  const dry = await relais.launch('demo:bash touch y.txt', 'dry_run');
  await page.goto(`${relais.base}/sessions/${dry}`);
  const dryCall = page.locator('app-tool-call', { hasText: '$ touch y.txt' });
  await expect(dryCall).toContainText('Dry run: would have run Bash: touch y.txt');
  await expect(page.locator('header.bar')).toContainText('dry run mode');

  const readOnly = await relais.launch('demo:bash touch x.txt', 'read_only');
  await page.goto(`${relais.base}/sessions/${readOnly}`);
  await expect(page.locator('app-tool-call', { hasText: '$ touch x.txt' })).toContainText(
    'Read-only session: Bash (shell commands) is off',
  );
  await expect(page.locator('header.bar')).toContainText('read-only mode');
  await expect(page.locator('header.bar')).not.toContainText('default mode');
});

test('an edit shows as a diff with context and the file’s line numbers', async ({
  page,
  relais,
}) => {
  writeFileSync(
    join(relais.cwd, 'notes.txt'),
    ['one', 'two', 'three', 'four', 'five', 'six', 'seven'].join('\n') + '\n',
  );
  const id = await relais.launch('demo:edit notes.txt five => 5\\nfive and a half');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  const prompt = page.getByRole('region', { name: 'Waiting for your answer' });
  await prompt.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByText(/Edit result: /)).toBeVisible();
  const diff = page.getByRole('table', { name: /Changes to .*notes\.txt/ });
  const rows = diff.locator('tbody tr');
  await expect(rows.filter({ hasText: 'removed' })).toHaveText([/^5\s*−\s*removed\s*five$/]);
  await expect(rows.filter({ hasText: 'added' })).toHaveText([
    /^5\s*\+\s*added\s*5$/,
    /^6\s*\+\s*added\s*five and a half$/,
  ]);
  // Context around the change, numbered on both sides.
  await expect(rows.filter({ hasText: 'four' })).toHaveText(/^4\s*4\s*unchanged\s*four$/);
  await expect(rows.filter({ hasText: 'six' })).toHaveText(/^6\s*7\s*unchanged\s*six$/);
  await expectAccessible(page, 'conversation with an edit diff');
});

test('a long tool output comes cut, says so, and shows whole when asked', async ({
  page,
  relais,
}) => {
  const lines = Array.from({ length: 1500 }, (_, i) => `line ${i + 1} of a long file`);
  writeFileSync(join(relais.cwd, 'long.txt'), lines.join('\n') + '\n');
  const id = await relais.launch('demo:read long.txt');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(page.getByText('First line: line 1 of a long file')).toBeVisible();
  const step = page.locator('.step', { has: page.locator('app-tool-call') });
  await expect(step.getByText('Long texts here are cut at 8,000 characters.')).toBeVisible();
  await step.getByRole('button', { name: /Show output/ }).click();
  const output = step.locator('pre.stdout');
  await expect(output).toContainText('line 100 of a long file');
  await expect(output).not.toContainText('line 1500 of a long file');
  await expectAccessible(page, 'conversation with a cut tool output');
  const whole = step.getByRole('button', { name: 'Show them whole' });
  await whole.focus();
  await page.keyboard.press('Enter');
  await expect(output).toContainText('line 1500 of a long file');
  await expect(whole).toHaveCount(0);
});
