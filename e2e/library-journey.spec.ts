import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectAccessible, openAt, test } from './support/fixtures';

test('library: write a command, import a skill, disable, delete; instructions reach a new conversation; / completes commands', async ({
  page,
  relais,
  request,
}) => {
  const headers = { Authorization: `Bearer ${relais.key}` };
  await openAt(page, relais, '/sessions');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Library' })
    .click();
  await expect(page.getByRole('heading', { name: 'Library', exact: true })).toBeVisible();

  // A command, written, by keyboard.
  const form = page.getByRole('form', { name: 'Add to the library' });
  await form.getByRole('textbox', { name: 'Name' }).fill('e2e-greet');
  await form
    .getByRole('textbox', { name: 'Content (Markdown)' })
    .fill('Greet with the word pineapple.');
  await form.getByRole('button', { name: 'Add' }).press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'Command e2e-greet saved.' }),
  ).toBeVisible();
  const items = page.getByRole('list', { name: 'Library items' });
  await expect(items).toContainText('/e2e-greet');

  // A name that would climb out of the folder is refused with the reason.
  await form.getByRole('textbox', { name: 'Name' }).fill('../evil');
  await form.getByRole('textbox', { name: 'Content (Markdown)' }).fill('x');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(form.getByRole('alert')).toContainText('a name is 1 to 64 ASCII letters');

  // A skill imported from a folder.
  const folder = join(relais.cwd, 'e2e-notes');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'SKILL.md'),
    '---\nname: e2e-notes\ndescription: Notes.\n---\nWrite notes.',
  );
  await form.getByRole('radio', { name: 'Skill' }).check();
  await form.getByRole('radio', { name: 'Import from a path' }).check();
  await form.getByRole('textbox', { name: 'Name' }).fill('');
  await form.getByRole('textbox', { name: 'Path on this machine' }).fill(folder);
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(items).toContainText('e2e-notes');
  await page.getByRole('switch', { name: 'Enabled: e2e-notes' }).click();
  await expect(page.getByRole('switch', { name: 'Enabled: e2e-notes' })).not.toBeChecked();

  // Instructions for every subscription.
  await page.getByRole('textbox', { name: 'Instructions' }).fill('E2E-MARK: be brief.');
  await page.getByRole('button', { name: 'Save instructions' }).click();
  await expect(page.getByText('Saved. New sessions start with these instructions')).toBeVisible();
  await expectAccessible(page, 'library page');

  const id = await relais.launch('demo:system E2E-MARK');
  await openAt(page, relais, `/sessions/${id}`);
  await expect(page.getByText('System prompt line: E2E-MARK: be brief.')).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: 'Instructions' })).toBeVisible();
  await expect(page.getByText('Common: E2E-MARK: be brief.')).toBeVisible();

  // Slash commands: the agent's own and the library's, completed by keyboard.
  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await composer.fill('/e2e-gr');
  const list = page.getByRole('listbox', { name: 'Commands' });
  await expect(list.getByRole('option', { name: '/e2e-greet' })).toBeVisible();
  await expect(composer).toHaveAttribute('aria-activedescendant', 'slash-e2e-greet');
  await expectAccessible(page, 'composer with slash commands');
  await composer.press('Tab');
  await expect(composer).toHaveValue('/e2e-greet ');
  await composer.press('Enter');
  await expect(page.getByText(/pineapple/).last()).toBeVisible();

  // Clean up what this journey made.
  await request.put(`${relais.base}/api/instructions`, {
    headers,
    data: { scope: 'common', text: '' },
  });
  await openAt(page, relais, '/library');
  await page.getByRole('button', { name: 'Delete e2e-greet' }).click();
  await page.getByRole('button', { name: 'Delete e2e-notes' }).click();
  await expect(page.getByRole('list', { name: 'Library items' })).not.toContainText('e2e-');
});

test('library page and the launch form with an MCP server, at 1440 and 390 px, light and dark', async ({
  page,
  relais,
}) => {
  await openAt(page, relais, '/library');
  await expect(page.getByRole('heading', { name: 'Library', exact: true })).toBeVisible();
  const shots: [number, string][] = [
    [1440, 'light'],
    [390, 'light'],
  ];
  for (const [width, theme] of shots) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: test.info().outputPath(`library-${width}-${theme}.png`),
      fullPage: true,
    });
  }
  // At 390 px the theme switch sits in the header's menu; it is switched at full width.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('banner').getByRole('button', { name: 'Switch to dark theme' }).click();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: test.info().outputPath(`library-${width}-dark.png`),
      fullPage: true,
    });
  }
  await expectAccessible(page, 'library page, dark, 390 px');
  await openAt(page, relais, '/sessions/new');
  await page.getByRole('button', { name: 'Add an MCP server' }).click();
  await page.getByRole('textbox', { name: 'URL or command' }).fill('http://127.0.0.1:9/mcp');
  await page.screenshot({
    path: test.info().outputPath('launch-mcp-390-dark.png'),
    fullPage: true,
  });
  await expectAccessible(page, 'launch form with an MCP server, dark, 390 px');
});
