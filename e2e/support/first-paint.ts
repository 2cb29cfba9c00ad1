import type { Page, Route } from '@playwright/test';

/**
 * Holds the console's entry script until the returned release() is called: the first paint
 * (src/first-paint) then stays on screen for as long as a test needs to read it.
 */
export async function holdConsole(page: Page): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/main-[\w-]+\.js$/, async (route: Route) => {
    await held;
    await route.continue();
  });
  // Later loads of the page go through at once.
  return async () => release();
}

export const firstPaint = (page: Page) => page.locator('#first-paint');
