import { startFakeMcpServer, type FakeMcpServer } from '../fakes/mcp-server/server';
import { expect, expectAccessible, test } from './support/fixtures';

let catalogue: FakeMcpServer;
test.beforeAll(async () => {
  catalogue = await startFakeMcpServer();
});
test.afterAll(async () => {
  await catalogue.close();
});

test('launch with an MCP server, tick one tool, see its call paired with its result', async ({
  page,
  relais,
}) => {
  await page.goto(relais.url);
  await page.getByRole('link', { name: 'Launch a session' }).first().click();
  await expect(page.getByRole('heading', { name: 'Launch a session' })).toBeVisible();
  await page.getByRole('button', { name: 'Detect models' }).click();
  await expect(page.getByRole('button', { name: 'Detect models' })).toBeEnabled();
  await page.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option').first().click();
  await page.getByRole('textbox', { name: 'Working directory' }).fill(relais.cwd);

  await page.getByRole('button', { name: 'Add an MCP server' }).click();
  const server = page.getByRole('region', { name: 'MCP server 1' });
  await server.getByRole('textbox', { name: 'Name' }).fill('catalogue');
  await server.getByRole('textbox', { name: 'URL or command' }).fill(catalogue.url);
  await server.getByRole('button', { name: 'List its tools' }).click();
  const tools = server.getByRole('group', { name: 'Allowed tools of catalogue' });
  await expect(tools.getByRole('checkbox')).toHaveCount(3);
  await tools.getByRole('checkbox', { name: /lookup/ }).check();
  await page
    .getByRole('textbox', { name: 'First prompt (optional)' })
    .fill('demo:mcp catalogue lookup delete_item');
  await expectAccessible(page, 'launch form with an MCP server');
  await page.getByRole('button', { name: 'Launch', exact: true }).click();

  const prompt = page.getByRole('region', { name: 'Waiting for your answer' });
  await expect(prompt).toContainText('mcp__catalogue__lookup');
  await prompt.getByRole('button', { name: 'Allow once' }).click();

  const call = page.locator('app-tool-call', { hasText: 'mcp__catalogue__lookup' });
  await expect(call.getByRole('group', { name: 'Tool result' })).toContainText('A1: blue mug');
  await expect(page.getByText('Offered: mcp__catalogue__lookup')).toBeVisible();
  await expect(
    page.getByText('No such tool available: mcp__catalogue__delete_item').first(),
  ).toBeVisible();
  expect(catalogue.calls.map((c) => c.tool)).toEqual(['lookup']);
  await expectAccessible(page, 'conversation with an MCP call');

  await page.getByRole('button', { name: 'Stop…' }).click();
  await page.getByRole('button', { name: 'Stop session' }).click();
  await expect(page.getByRole('button', { name: 'Stop…' })).toBeDisabled();
});
