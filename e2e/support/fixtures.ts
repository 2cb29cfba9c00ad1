import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Relais {
  /** The URL the daemon printed (key in the fragment). */
  url: string;
  base: string;
  key: string;
  /** A fresh working directory for sessions. */
  cwd: string;
  /** Launches a session through the API (as another tool of the machine would). */
  launch(prompt: string, mode?: 'write' | 'read_only' | 'dry_run'): Promise<string>;
  /** Waits until the session has a prompt pending on the daemon (agents ask at their own pace). */
  promptOf(sessionId: string): Promise<void>;
}

async function launchVia(
  request: APIRequestContext,
  base: string,
  key: string,
  cwd: string,
  prompt: string,
  mode: 'write' | 'read_only' | 'dry_run' = 'write',
): Promise<string> {
  const response = await request.post(`${base}/api/sessions`, {
    headers: { Authorization: `Bearer ${key}` },
    data: {
      subscription_id: 'demo',
      model: 'default',
      cwd,
      permission_mode: mode,
      ttl_seconds: 900,
      prompt,
      app: 'e2e',
    },
  });
  expect(response.status(), `launch refused: ${await response.text()}`).toBe(201);
  const body = (await response.json()) as { id: string };
  return body.id;
}

async function promptPending(
  request: APIRequestContext,
  base: string,
  key: string,
  sessionId: string,
): Promise<void> {
  await expect
    .poll(async () => {
      const response = await request.get(`${base}/api/permissions?state=pending`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      const body = (await response.json()) as { items: { session_id: string }[] };
      return body.items.some((item) => item.session_id === sessionId);
    }, `a pending prompt of ${sessionId}`)
    .toBe(true);
}

const SENDING = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'fetch']);

/**
 * The daemon closes a keep-alive connection idle for 72 s (Fastify's default); a request sent on
 * it at that very moment fails with ECONNRESET before the daemon reads it (a journey calling the API
 * at its start and again about 72 s later met it). Such a reset is retried, as browsers do.
 */
function retryingResets(request: APIRequestContext): APIRequestContext {
  return new Proxy(request, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      const method = value.bind(target) as (url: unknown, options?: object) => unknown;
      if (typeof name !== 'string' || !SENDING.has(name)) return method;
      return (url: unknown, options: object = {}) => method(url, { maxRetries: 2, ...options });
    },
  });
}

export const test = base.extend<{ relais: Relais }>({
  request: async ({ request }, use) => {
    await use(retryingResets(request));
  },
  // Every page of every journey (a tab it opens too): nothing the console does may trip its own
  // Content Security Policy (an eval probe, an inline script or handler, a foreign origin), even
  // one it catches.
  context: async ({ context }, use) => {
    const violations: string[] = [];
    await context.exposeFunction('__relaisCspViolation', (text: string) => violations.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __relaisCspViolation(text: string): void })
          .__relaisCspViolation;
        report(
          `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} ` +
            `at ${event.sourceFile}:${event.lineNumber} on ${location.pathname}`,
        );
      });
    });
    await use(context);
    expect(violations, 'CSP violations on the console').toEqual([]);
  },
  relais: async ({ request }, use, testInfo) => {
    const url = process.env['RELAIS_E2E_URL'];
    const baseUrl = process.env['RELAIS_E2E_BASE'];
    const key = process.env['RELAIS_E2E_KEY'];
    if (!url || !baseUrl || !key) throw new Error('The global setup did not start the daemon.');
    const cwd = mkdtempSync(join(tmpdir(), 'relais-e2e-cwd-'));
    const launched: string[] = [];
    await use({
      url,
      base: baseUrl,
      key,
      cwd,
      launch: async (prompt, mode) => {
        const id = await launchVia(request, baseUrl, key, cwd, prompt, mode);
        launched.push(id);
        return id;
      },
      promptOf: (sessionId) => promptPending(request, baseUrl, key, sessionId),
    });
    // A journey that failed carries the daemon's last log lines (a session that would not end, an
    // agent's error): the daemon is shared and gone once the run ends.
    if (testInfo.status !== testInfo.expectedStatus) {
      const logs = await request.get(`${baseUrl}/api/logs?limit=300`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      await testInfo.attach('daemon-logs.json', {
        body: await logs.text(),
        contentType: 'application/json',
      });
    }
    // The journeys share one daemon whose quota admission counts running sessions: a journey
    // leaves none running behind it, whether it passed or not.
    await Promise.all(
      launched.map((id) =>
        request.post(`${baseUrl}/api/sessions/${id}/stop`, {
          headers: { Authorization: `Bearer ${key}` },
        }),
      ),
    );
  },
});

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Colours read mid-transition (a theme or viewport just changed, a label floating) are neither
  // the old nor the new ones: axe judges the page once its finite animations have ended.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((settle) => setTimeout(settle, 2000)),
    ]),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
  expect(summary, `axe on ${label}`).toEqual([]);
}

/** Opens the console already holding the key (as the printed URL does), at a given path. */
export async function openAt(page: Page, relais: Relais, path = '/'): Promise<void> {
  await page.goto(relais.url);
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  if (path !== '/') await page.goto(relais.base + path);
}

export { expect };
