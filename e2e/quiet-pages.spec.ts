import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/**
 * The seconds, within a watch of `ms`, in which the page's DOM changed at all (text, attributes,
 * nodes). Ages and countdowns step by the minute: a watch of a few seconds may cross one step.
 */
async function secondsWithChanges(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(
    (watch) =>
      new Promise<number[]>((done) => {
        const started = performance.now();
        const seconds = new Set<number>();
        const observer = new MutationObserver(() =>
          seconds.add(Math.floor((performance.now() - started) / 1000)),
        );
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
        setTimeout(() => {
          observer.disconnect();
          done([...seconds]);
        }, watch);
      }),
    ms,
  );
}

test('an idle page is quiet: no ticking seconds in lists, countdowns or uptimes', async ({
  page,
  relais,
}) => {
  const id = await relais.launch('hello');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(page.locator('header app-state-chip')).toHaveText('idle');

  const pages: [string, string][] = [
    ['the conversation', `/sessions/${id}`],
    ['the sessions list', '/sessions'],
    ['the inbox', '/inbox'],
    ['the subscriptions', '/subscriptions'],
    ['diagnostics', '/diagnostics'],
  ];
  for (const [name, path] of pages) {
    await page.goto(relais.base + path);
    await expect(page.locator('main, [role="main"]').first()).toBeVisible();
    // Past what the page reads on open (its first answers, the live stream's snapshot).
    await page.waitForTimeout(2500);
    const changed = await secondsWithChanges(page, 3200);
    expect(changed.length, `${name} changed in seconds ${changed.join(', ')}`).toBeLessThanOrEqual(
      1,
    );
  }
});
