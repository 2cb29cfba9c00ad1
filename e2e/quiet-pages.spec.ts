import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/** What changed in one second of a watch: its first few changes, described for a failure message. */
interface SecondOfChanges {
  second: number;
  what: string[];
}

/**
 * The seconds, within a watch of `ms`, in which the page's DOM changed at all (text, attributes,
 * nodes), each with what changed. Ages and countdowns step by the minute: a watch of a few seconds
 * may cross one step.
 */
async function secondsWithChanges(page: Page, ms: number): Promise<SecondOfChanges[]> {
  return page.evaluate(
    (watch) =>
      new Promise<SecondOfChanges[]>((done) => {
        const started = performance.now();
        const seconds = new Map<number, string[]>();
        const describe = (record: MutationRecord): string => {
          const node = record.target;
          const element = node instanceof Element ? node : node.parentElement;
          const where = element
            ? element.tagName.toLowerCase() +
              (element.className ? '.' + String(element.className).split(' ')[0] : '')
            : '?';
          const detail =
            record.type === 'attributes'
              ? `@${record.attributeName}`
              : `"${(node.textContent ?? '').trim().slice(0, 40)}"`;
          return `${record.type} ${where} ${detail}`;
        };
        const observer = new MutationObserver((records) => {
          const second = Math.floor((performance.now() - started) / 1000);
          const what = seconds.get(second) ?? [];
          for (const record of records) if (what.length < 3) what.push(describe(record));
          seconds.set(second, what);
        });
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
        setTimeout(() => {
          observer.disconnect();
          done([...seconds].map(([second, what]) => ({ second, what })));
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
    const told = changed.map(({ second, what }) => `${second}: ${what.join('; ')}`).join(' | ');
    expect(changed.length, `${name} changed in seconds ${told}`).toBeLessThanOrEqual(1);
  }
});
