import type { Page } from '@playwright/test';
import { expect, expectAccessible, openAt, test } from './support/fixtures';

/** Reads a live NDJSON stream with a key; `ended` settles when the daemon closes it. */
async function openStream(url: string, key: string) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let lines = 0;
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'ended';
        lines += new TextDecoder().decode(value).split('\n').length - 1;
      }
    } catch {
      return 'ended';
    }
  })();
  return { ended, lines: () => lines };
}

async function createKey(page: Page, name: string, scopes: string[]): Promise<string> {
  const form = page.getByRole('form', { name: 'Create a key' });
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  for (const scope of scopes)
    await form.getByRole('checkbox', { name: new RegExp(`^${scope} ?: `) }).check();
  if (scopes.includes('launch'))
    await form.getByRole('checkbox', { name: 'Demo (scripted model)' }).check();
  await form.getByRole('button', { name: 'Create key' }).click();
  const secret = page.getByRole('textbox', { name: `Key of ${name}` });
  await expect(secret).toBeFocused();
  return secret.inputValue();
}

test('a tool with its own key launches, cannot answer its own prompt, and is cut off when revoked', async ({
  page,
  relais,
  request,
}) => {
  await openAt(page, relais);
  await page.getByRole('link', { name: 'Access' }).click();
  await expect(page.getByRole('heading', { name: 'Access', level: 1 })).toBeVisible();
  const secret = await createKey(page, 'Build script', ['launch', 'steer']);
  expect(secret).toMatch(/^relais_/);
  await expectAccessible(page, 'access page with a new key');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('textbox', { name: 'Key of Build script' })).toHaveCount(0);
  const card = page.getByRole('listitem').filter({ hasText: 'Build script' });
  await expect(card).toContainText('launch');
  await expect(card).toContainText('never');

  // The script: launches with its key (its declared app name is not taken), follows its session.
  const launched = await request.post(`${relais.base}/api/sessions`, {
    headers: { Authorization: `Bearer ${secret}`, 'X-Relais-App': 'console' },
    data: {
      subscription_id: 'demo',
      model: 'default',
      cwd: relais.cwd,
      prompt: "demo:bash sh -c 'echo keyed'",
      app: 'console',
    },
  });
  expect(launched.status(), await launched.text()).toBe(201);
  const session = (await launched.json()) as { id: string; app: string };
  expect(session.app).toBe('Build script');
  const stream = await openStream(
    `${relais.base}/api/sessions/${session.id}/stream?after=0`,
    secret,
  );
  await relais.promptOf(session.id);
  const pending = await request.get(`${relais.base}/api/permissions?state=pending`, {
    headers: { Authorization: `Bearer ${secret}` },
  });
  const prompt = (
    (await pending.json()) as { items: { id: string; session_id: string }[] }
  ).items.find((item) => item.session_id === session.id)!;
  const own = await request.post(`${relais.base}/api/permissions/${prompt.id}/decision`, {
    headers: { Authorization: `Bearer ${secret}` },
    data: { decision: 'allow' },
  });
  expect(own.status()).toBe(403);
  expect(((await own.json()) as { error_code: string }).error_code).toBe('scope_missing');

  // A person answers it in the Inbox, which says which caller launched the session.
  await page.getByRole('link', { name: /Inbox/ }).click();
  const promptCard = page.locator('app-permission-card', { hasText: "sh -c 'echo keyed'" });
  await expect(promptCard).toContainText('launched by the key Build script');
  await promptCard.getByRole('button', { name: 'Allow once' }).click();
  await expect(promptCard).toHaveCount(0);
  await expect
    .poll(async () => {
      const events = await request.get(`${relais.base}/api/sessions/${session.id}/events`, {
        headers: { Authorization: `Bearer ${secret}` },
      });
      return (await events.text()).includes('keyed');
    })
    .toBe(true);

  // Analytics filter by caller: the key's name is offered, its id goes to the URL.
  await page.getByRole('link', { name: 'Analytics' }).click();
  await page.locator('[data-filter="caller"]').click();
  await page.getByRole('option', { name: 'Build script' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/caller=key_/);

  // Revoked: its open stream ends at once, and the key is refused from then on.
  await page.getByRole('link', { name: 'Access' }).click();
  await card.getByRole('button', { name: 'Revoke Build script' }).click();
  await page.getByRole('button', { name: 'Revoke now' }).click();
  await expect(card).toContainText('revoked');
  await expect(stream.ended).resolves.toBe('ended');
  expect(stream.lines()).toBeGreaterThan(0);
  const refused = await request.get(`${relais.base}/api/sessions`, {
    headers: { Authorization: `Bearer ${secret}` },
  });
  expect(refused.status()).toBe(401);
  await request.post(`${relais.base}/api/sessions/${session.id}/stop`, {
    headers: { Authorization: `Bearer ${relais.key}` },
  });
});

test('the Access page by keyboard, at 1440 and 390 px, light and dark', async ({
  page,
  relais,
}) => {
  await openAt(page, relais, '/access');
  await expect(page.getByRole('heading', { name: 'Access', level: 1 })).toBeVisible();
  // Keyboard only: name, expiry, scopes (decide_own in red), create.
  await page.getByRole('textbox', { name: 'Name' }).focus();
  await page.keyboard.type('Reviewer bot');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Expires after' })).toBeFocused();
  await page.keyboard.press('Tab');
  for (let i = 0; i < 10; i++) {
    const focused = await page.evaluate(() =>
      document.activeElement?.closest('[data-scope]')?.getAttribute('data-scope'),
    );
    if (focused === 'decide_own') break;
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Space');
  await expect(page.getByRole('note')).toContainText('no person sees those prompts first');
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    return getComputedStyle(
      el
        .closest('.mat-mdc-checkbox')
        ?.querySelector('.mdc-checkbox__ripple, .mat-focus-indicator') ?? el,
    ).display;
  });
  expect(outline).not.toBe('none');
  await page.getByRole('button', { name: 'Create key' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Key of Reviewer bot' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Copy' })).toBeFocused();
  const card = page.getByRole('listitem').filter({ hasText: 'Reviewer bot' });
  await expect(card.locator('.scope.danger')).toHaveText('decide_own');
  await expect(page.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await expectAccessible(page, `access ${width} ${scheme}`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `test-results/access/${width}-${scheme}.png`, fullPage: true });
      await page.getByRole('region', { name: 'Keys' }).screenshot({
        path: `test-results/access/${width}-${scheme}-keys.png`,
      });
    }
  }
});

test('the palette reaches the Access page', async ({ page, relais }) => {
  await openAt(page, relais);
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('access');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Access', level: 1 })).toBeVisible();
});
