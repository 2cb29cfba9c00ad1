import type { Page } from '@playwright/test';
import { expect, expectAccessible, openAt, test } from './support/fixtures';

// A phone, as a newcomer holds it: 390 × 844, touch, and every page reached from the menu.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Elements wider than the screen that make the page (or its main region) scroll sideways. */
async function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > width) {
      const widest = [...document.body.querySelectorAll<HTMLElement>('*')]
        .filter((element) => element.getBoundingClientRect().right > width + 1)
        .slice(-3)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
      found.push(`the page is ${root.scrollWidth} px wide (${widest.join(', ')})`);
    }
    const main = document.querySelector('main');
    if (main && main.scrollWidth > main.clientWidth + 1)
      found.push(`main scrolls to ${main.scrollWidth} px`);
    // What sticks out of the screen without a scrolling region of its own to hold it.
    for (const element of document.querySelectorAll<HTMLElement>('main *')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1) continue;
      let holder = element.parentElement;
      let held = false;
      // Held by the nearest clipping or scrolling ancestor that itself fits the screen (a cell
      // that cuts its text, inside a table that scrolls in its own region, is held by the region).
      while (holder && holder !== main) {
        const style = getComputedStyle(holder);
        if (
          /(auto|scroll|hidden|clip)/.test(style.overflowX) &&
          holder.getBoundingClientRect().right <= width + 1
        ) {
          held = true;
          break;
        }
        holder = holder.parentElement;
      }
      if (!held)
        found.push(
          `${element.tagName.toLowerCase()}.${element.className} ends at ${Math.round(box.right)} px`,
        );
      if (found.length > 5) break;
    }
    return found;
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  if (process.env['RELAIS_SHOTS'])
    await page.screenshot({ path: `test-results/phone/${name}.png`, fullPage: false });
}

test('every page fits a phone: no sideways scroll, the top bar folds into a menu', async ({
  page,
  relais,
}) => {
  test.setTimeout(240_000);
  const id = await relais.launch("demo:bash sh -c 'echo phone'");
  await openAt(page, relais, '/inbox');
  // Answered on the phone, so the audit and the conversation have something wide to show.
  const card = page.locator('app-permission-card').filter({ hasText: "sh -c 'echo phone'" });
  const allow = card.getByRole('button', { name: 'Allow once' });
  await expect(allow).not.toHaveAttribute('aria-disabled', 'true');
  await allow.click();
  await expect(card).toHaveCount(0);
  await shoot(page, 'inbox-answered');
  // The top bar's actions do not overlap: they live behind one Menu button.
  const menu = page.getByRole('button', { name: /^Menu/ });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

  await menu.click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeVisible();
  const paths = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
  expect(paths.length).toBeGreaterThanOrEqual(7);
  await expect(page.getByRole('button', { name: /theme/ })).toBeVisible();
  await shoot(page, 'menu-open');
  await expectAccessible(page, 'phone menu');
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  // The rest of the walk is in the dark theme, chosen from the menu; axe checks every page in it.
  await menu.click();
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  await page.keyboard.press('Escape');

  for (const path of paths) {
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).locator(`a[href="${path}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${path}($|\\?)`));
    // The menu closes on the way, and the page's own heading is there.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.locator('main h1').first()).toBeVisible();
    // The page's data arrives after its heading; the live stream never lets the network idle.
    await page.waitForTimeout(1500);
    await shoot(page, path.slice(1).replace(/\W+/g, '-'));
    expect(await sidewaysScroll(page), `${path} at 390 px`).toEqual([]);
    await expectAccessible(page, `${path} at 390 px, dark`);
  }

  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(page.getByText('Command result: phone')).toBeVisible();
  expect(await sidewaysScroll(page), 'conversation at 390 px').toEqual([]);
  await shoot(page, 'conversation');
  await expectAccessible(page, 'conversation on a phone');
  // The steering and queue panels take the screen's height in place of the conversation.
  await page.getByRole('button', { name: 'Steering & queue' }).click();
  const panels = page.getByRole('complementary', { name: 'Steering and queue' });
  await expect(panels).toBeVisible();
  await expect(page.getByRole('log', { name: 'Conversation' })).toBeHidden();
  const height = (await panels.boundingBox())!.height;
  expect(height, 'the panels are not a strip').toBeGreaterThan(844 * 0.5);
  await page.waitForTimeout(500);
  await shoot(page, 'conversation-panels');
  expect(await sidewaysScroll(page), 'conversation with its panels at 390 px').toEqual([]);
  await expectAccessible(page, 'conversation panels on a phone');
  await page.getByRole('button', { name: 'Hide panels' }).click();
  await expect(page.getByRole('log', { name: 'Conversation' })).toBeVisible();

  // Turned to a wide screen, the menu is gone and its copy of the actions with it.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByRole('button', { name: /^Menu/ })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /theme$/ })).toHaveCount(1);
});
