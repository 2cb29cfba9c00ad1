import { expect, expectAccessible, openAt, test } from './support/fixtures';

// A desk screen in the dark theme: every page of the menu, a conversation with a result, axe on each.
test.use({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });

test('every page at 1440 px in the dark theme reads well: axe passes and nothing sticks out', async ({
  page,
  relais,
  request,
}) => {
  test.setTimeout(180_000);
  // Whatever a tool calls itself and whatever a person first asks, the tables fit: this session
  // carries a long application name, and a long unbroken title.
  const auth = { Authorization: `Bearer ${relais.key}` };
  const launched = await request.post(`${relais.base}/api/sessions`, {
    headers: auth,
    data: {
      subscription_id: 'demo',
      model: 'default',
      cwd: relais.cwd,
      prompt: "demo:bash sh -c 'echo wide'",
      app: 'an-integration-tool-with-a-rather-long-name-that-does-not-stop-here-v2',
      ttl_seconds: 900,
    },
  });
  expect(launched.status(), await launched.text()).toBe(201);
  const id = ((await launched.json()) as { id: string }).id;
  const renamed = await request.patch(`${relais.base}/api/sessions/${id}`, {
    headers: auth,
    data: {
      title:
        'Summarise-the-architecture-decision-records-and-list-every-open-question-of-this-repository-today',
    },
  });
  expect(renamed.status(), await renamed.text()).toBe(200);
  await openAt(page, relais, `/sessions/${id}`);
  // The system's dark preference is followed without a choice being made.
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  const allow = page.getByRole('button', { name: 'Allow once' }).first();
  await expect(allow).not.toHaveAttribute('aria-disabled', 'true');
  await allow.click();
  await expect(page.getByText('Command result: wide')).toBeVisible();
  await page.waitForTimeout(500);
  await shoot(page, 'conversation');
  await expectAccessible(page, 'conversation at 1440 px, dark');

  const nav = page.getByRole('navigation', { name: 'Main' });
  const paths = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
  expect(paths.length).toBeGreaterThanOrEqual(7);
  for (const path of [...paths, '/sessions/new']) {
    await page.goto(relais.base + path);
    await expect(page.locator('main h1').first()).toBeVisible();
    // The page's data arrives after its heading; the live stream never lets the network idle.
    await page.waitForTimeout(1200);
    await shoot(page, path.slice(1).replace(/\W+/g, '-'));
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(width, `${path} scrolls sideways`).toBeLessThanOrEqual(1440);
    // On a desk screen a table fits: no region of the page needs its own sideways scroll.
    const scrollers = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main *')]
        .filter((element) => /(auto|scroll)/.test(getComputedStyle(element).overflowX))
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .map((element) => `${element.className} (${element.scrollWidth} > ${element.clientWidth})`),
    );
    expect(scrollers, `${path}: regions scrolling sideways at 1440 px`).toEqual([]);
    await expectAccessible(page, `${path} at 1440 px, dark`);
  }
  await request.post(`${relais.base}/api/sessions/${id}/stop`, { headers: auth });
});

async function shoot(page: import('@playwright/test').Page, name: string): Promise<void> {
  if (process.env['RELAIS_SHOTS'])
    await page.screenshot({ path: `test-results/wide-dark/${name}.png`, fullPage: true });
}
