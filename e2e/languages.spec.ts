import type { APIRequestContext, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { expect, expectAccessible, openAt, test, type Relais } from './support/fixtures';

/** Every page, as the rail and the palette reach them; the conversation's path comes per run. */
const PAGES = [
  '/sessions',
  '/sessions/new',
  '/inbox',
  '/subscriptions',
  '/analytics',
  '/rules',
  '/audit',
  '/library',
  '/storage',
  '/access',
  '/diagnostics',
];
/** A word each language's rail shows (Inbox), so a page is known to speak it. */
const INBOX = { en: 'Inbox', fr: 'Demandes' } as const;
const SHOTS = process.env['RELAIS_I18N_SHOTS'];

/** What makes the page, or its main region, wider than the screen (French words are longer). */
async function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > width) found.push(`the page is ${root.scrollWidth} px wide`);
    const main = document.querySelector('main');
    if (main && main.scrollWidth > main.clientWidth + 1)
      found.push(`main scrolls to ${main.scrollWidth} px`);
    const header = document.querySelector('header.topbar');
    if (header && header.scrollWidth > header.clientWidth + 1)
      found.push(`the top bar holds ${header.scrollWidth} px in ${header.clientWidth}`);
    return found;
  });
}

/**
 * A caller key with every scope, a lifetime and one use, so that the Access page shows a key's
 * card (its scopes, subscriptions, expiry, last use) in each language at each width.
 */
async function giveACallerKey(request: APIRequestContext, relais: Relais, name: string) {
  const created = await request.post(`${relais.base}/api/keys`, {
    headers: { Authorization: `Bearer ${relais.key}` },
    data: {
      name,
      scopes: ['read', 'read:all', 'launch', 'steer', 'decide', 'decide_own', 'metrics'],
      subscriptions: ['demo'],
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { secret } = (await created.json()) as { secret: string };
  const used = await request.get(`${relais.base}/api/sessions`, {
    headers: { Authorization: `Bearer ${secret}` },
  });
  expect(used.status()).toBe(200);
}

async function openEveryPage(page: Page, relais: Relais, locale: 'en' | 'fr', width: number) {
  const id = await relais.launch('hello');
  await giveACallerKey(page.request, relais, `Nightly deploy script ${locale} ${width}`);
  await openAt(page, relais);
  for (const path of [...PAGES, `/sessions/${id}`]) {
    await page.goto(relais.base + path);
    await expect(page.locator('main h1, main h2').first()).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    if (width > 600)
      await expect(
        page.getByRole('navigation').getByRole('link', { name: INBOX[locale] }),
      ).toBeVisible();
    await page.waitForTimeout(300);
    expect(await sidewaysScroll(page), `${path} at ${width} px in ${locale}`).toEqual([]);
    await expectAccessible(page, `${path} at ${width} px in ${locale}`);
  }
  return id;
}

for (const locale of ['en', 'fr'] as const) {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test.describe(`${locale} at ${viewport.width} px`, () => {
      test.use({ locale: locale === 'fr' ? 'fr-FR' : 'en-US', viewport });
      test('every page speaks the browser language, fits the screen and passes axe', async ({
        page,
        relais,
      }) => {
        await openEveryPage(page, relais, locale, viewport.width);
        if (!SHOTS || locale !== 'fr') return;
        mkdirSync(SHOTS, { recursive: true });
        const size = viewport.width > 600 ? 'desk' : 'phone';
        // A command waiting for its answer, so the pictures show a prompt in the Inbox and the conversation.
        const waiting = await relais.launch("demo:bash sh -c 'echo bonjour'");
        await page.goto(`${relais.base}/inbox`);
        await expect(page.getByRole('button', { name: 'Refuser' }).first()).toBeVisible();
        for (const [name, path] of [
          ['conversation', `/sessions/${waiting}`],
          ['inbox', '/inbox'],
          ['analytics', '/analytics'],
          ['access', '/access'],
        ]) {
          for (const scheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme: scheme });
            await page.evaluate((s) => localStorage.setItem('relais.theme', s), scheme);
            await page.goto(relais.base + path);
            await expect(page.locator('main h1, main h2').first()).toBeVisible();
            await page.waitForTimeout(800);
            await page.screenshot({ path: `${SHOTS}/${name}-${scheme}-${size}.png` });
            if (name !== 'access') continue;
            // The keys' cards sit below the form: scrolled to, in a second picture.
            await page.evaluate(() => document.getElementById('keys-title')?.scrollIntoView());
            await page.waitForTimeout(300);
            await page.screenshot({ path: `${SHOTS}/${name}-keys-${scheme}-${size}.png` });
          }
        }
      });
    });
  }
}

test.describe('the language switch', () => {
  test.use({ locale: 'en-US' });
  test('the header switch and the palette change the language at the same address, remembered, key kept', async ({
    page,
    relais,
  }) => {
    const id = await relais.launch('hello');
    await openAt(page, relais, `/sessions/${id}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    await page.getByRole('banner').getByRole('button', { name: 'Language: Français' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    expect(new URL(page.url()).pathname).toBe(`/sessions/${id}`);
    await expect(
      page.getByRole('navigation').getByRole('link', { name: 'Demandes' }),
    ).toBeVisible();
    // Still connected: the key never left the browser, and no request carried it in its address.
    await expect(page.locator('.live-status')).toHaveText('en direct');
    await expect(page.locator('header app-state-chip')).toHaveText(/inactive|au travail|démarrage/);
    expect(asked.filter((url) => url.includes(relais.key))).toEqual([]);

    // Remembered: a fresh visit to another page, with an English browser, stays French.
    await page.goto(`${relais.base}/inbox`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');

    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Rechercher une commande' }).fill('langue');
    await expect(page.getByRole('option').first()).toContainText('Langue\u00a0: English');
    await page.keyboard.press('Enter');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(new URL(page.url()).pathname).toBe('/inbox');
  });
});
