import { expect, expectAccessible, test } from './support/fixtures';

test('deny with a reason: the agent quotes it', async ({ page, relais }) => {
  const id = await relais.launch("demo:bash sh -c 'echo nope'");
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  const prompt = page.getByRole('region', { name: 'Waiting for your answer' });
  await expect(prompt.getByRole('button', { name: 'Deny' })).toBeVisible();
  await prompt
    .getByRole('textbox', { name: 'Reason for denying (optional)' })
    .fill('not on this machine');
  await prompt.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByText('Command result: not on this machine')).toBeVisible();
  await expect(page.locator('app-tool-call')).toContainText('Denied');
  await expectAccessible(page, 'conversation after a denial');
});

test('answer an agent question from its options', async ({ page, relais }) => {
  const id = await relais.launch('demo:ask');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  const prompt = page.getByRole('region', { name: 'Waiting for your answer' });
  await expect(prompt.getByRole('group', { name: 'Which color?' })).toBeVisible();
  await expectAccessible(page, 'conversation with a question');
  await prompt.getByRole('radio', { name: /Blue/ }).check();
  await prompt.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(page.getByText(/You answered: .*Blue/)).toBeVisible();
});

test('two prompts in two sessions, each answered from the inbox by its own buttons', async ({
  page,
  relais,
}) => {
  const first = await relais.launch("demo:bash sh -c 'echo one'");
  const second = await relais.launch("demo:bash sh -c 'echo two'");
  await page.goto(relais.url);
  await page.getByRole('link', { name: /Inbox/ }).click();
  const cardOne = page.locator(`app-permission-card`, { hasText: "sh -c 'echo one'" });
  const cardTwo = page.locator(`app-permission-card`, { hasText: "sh -c 'echo two'" });
  await expect(cardOne).toBeVisible();
  await expect(cardTwo).toBeVisible();
  // The count of waiting prompts stays in front of the page's own title after the navigation.
  await expect(page).toHaveTitle(/^\(\d+\) Inbox · Relais$/);
  await expectAccessible(page, 'inbox with two prompts');

  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('answer the oldest');
  await page.keyboard.press('Enter');
  await expect(
    page.locator('app-permission-card').first().getByRole('button', { name: 'Allow once' }),
  ).toBeFocused();

  await cardTwo.getByRole('button', { name: 'Allow once' }).click();
  await expect(cardTwo).toHaveCount(0);
  await expect(cardOne).toBeVisible();
  await cardOne
    .getByRole('textbox', { name: 'Reason for denying (optional)' })
    .fill('one is enough');
  await cardOne.getByRole('button', { name: 'Deny' }).click();
  await expect(cardOne).toHaveCount(0);

  await page.goto(`${relais.base}/sessions/${second}`);
  await expect(page.getByText('Command result: two')).toBeVisible();
  await page.goto(`${relais.base}/sessions/${first}`);
  await expect(page.getByText('Command result: one is enough')).toBeVisible();
});

test('a wrong key leads to the key page, which accepts a paste', async ({ page, relais }) => {
  await page.goto(`${relais.base}/#key=not-the-key`);
  await expect(page.getByRole('heading', { name: 'Connect to your Relais daemon' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('refused');
  await expect(page.getByText('$RELAIS_HOME/api-key')).toBeVisible();
  await expectAccessible(page, 'key page');
  await page.getByRole('textbox', { name: 'API key' }).fill(relais.key);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
});

test('a prompt that takes the place of an answered one does not catch the second click', async ({
  page,
  relais,
  request,
}) => {
  // Oldest first: the first prompt must stand above the second, whichever agent is quicker.
  const first = await relais.launch("demo:bash sh -c 'echo first'");
  await relais.promptOf(first);
  const second = await relais.launch("demo:bash sh -c 'echo second'");
  await page.goto(relais.url);
  await page.getByRole('link', { name: /Inbox/ }).click();
  // Prompts left by earlier tests on the same daemon may stand above these two.
  const cards = page.locator('app-permission-card');
  const cardOne = cards.filter({ hasText: "sh -c 'echo first'" });
  const cardTwo = cards.filter({ hasText: "sh -c 'echo second'" });
  await expect(cardOne).toBeVisible();
  await expect(cardTwo).toBeVisible();
  // The card says whose prompt it is: folder, model, subscription, mode.
  const folder = relais.cwd.split('/').at(-1)!;
  await expect(cardOne).toContainText(folder);
  await expect(cardOne).toContainText('subscription demo');
  await expect(cardOne).toContainText('write mode');

  const allowOne = cardOne.getByRole('button', { name: 'Allow once' });
  await expect(allowOne).not.toHaveAttribute('aria-disabled', 'true');
  const box = await allowOne.boundingBox();
  if (!box) throw new Error('no button');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // A double click, as a person makes it: the second click comes a few hundred ms after the
  // first, by which time the answered prompt is gone and the other one stands where it was. The
  // page itself clicks again the moment the first card leaves (the test runner may be slower).
  const secondClick = page.evaluate(
    ([px, py]) =>
      new Promise<{ text: string; ariaDisabled: string | null }>((resolve) => {
        const observer = new MutationObserver(() => {
          const still = [...document.querySelectorAll('app-permission-card')].some((card) =>
            card.textContent?.includes("sh -c 'echo first'"),
          );
          if (still) return;
          observer.disconnect();
          const target = document.elementFromPoint(px!, py!);
          const button = target?.closest('button');
          target?.dispatchEvent(
            new MouseEvent('click', { bubbles: true, clientX: px!, clientY: py! }),
          );
          resolve({
            text: target?.closest('app-permission-card')?.textContent ?? '',
            ariaDisabled: button?.getAttribute('aria-disabled') ?? null,
          });
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
    [x, y],
  );
  await page.mouse.click(x, y);
  const landed = await secondClick;
  // It landed on the other prompt's own Allow button, which had not armed yet.
  expect(landed.text).toContain("sh -c 'echo second'");
  expect(landed.ariaDisabled).toBe('true');
  await expect(cardOne).toHaveCount(0);
  const allowTwo = cardTwo.getByRole('button', { name: 'Allow once' });
  // The second click did nothing: the prompt is still pending on the daemon.
  const pending = await request.get(`${relais.base}/api/permissions?state=pending`, {
    headers: { Authorization: `Bearer ${relais.key}` },
  });
  const body = (await pending.json()) as { items: { session_id: string }[] };
  const mine = body.items.filter((item) => item.session_id === first || item.session_id === second);
  expect(mine.map((item) => item.session_id)).toEqual([second]);
  // The focus went to the prompt that took the answered one's place, not to the page.
  await expect(cardTwo.locator('article')).toBeFocused();
  await expectAccessible(page, 'inbox while a prompt arms');

  // Once it has been in view for a moment, it answers.
  await expect(allowTwo).not.toHaveAttribute('aria-disabled', 'true');
  await allowTwo.click();
  await expect(cardTwo).toHaveCount(0);
  // Focus went on (to the next prompt, or the page's title when none is left), not to <body>.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.tagName ?? 'none'))
    .toMatch(/^(ARTICLE|H1)$/);
  await page.goto(`${relais.base}/sessions/${first}`);
  await expect(page.getByText('Command result: first')).toBeVisible();
});

test('a prompt arriving in a conversation is announced and arms before it answers', async ({
  page,
  relais,
}) => {
  const id = await relais.launch('demo:steps 2 3');
  await page.goto(relais.url);
  await page.goto(`${relais.base}/sessions/${id}`);
  const prompts = page.getByRole('region', { name: 'Waiting for your answer' });
  const announcer = page.locator('.cdk-live-announcer-element');
  await expect(announcer).toHaveText(
    "New prompt: Bash asks permission for sh -c 'sleep 3; echo step 1'.",
  );
  const allow = prompts.getByRole('button', { name: 'Allow once' });
  await expect(allow).not.toHaveAttribute('aria-disabled', 'true');
  // Keyboard only: answer, then the focus is on the composer (no prompt left) until the next one,
  // which cannot come sooner than the 3 s its step's command sleeps.
  await allow.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Message to the agent' })).toBeFocused();
  await expect(prompts.getByText("sh -c 'sleep 3; echo step 2'")).toBeVisible();
  await expect(announcer).toHaveText(
    "New prompt: Bash asks permission for sh -c 'sleep 3; echo step 2'.",
  );
  await prompts.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByText('Finished 2 steps.')).toBeVisible();
});

test('a network prompt allowed always is listed on the Rules page, and removed there', async ({
  page,
  relais,
}) => {
  const host = `always-${Date.now()}.invalid`;
  const id = await relais.launch(`demo:bash curl -s -m 5 https://${host}/`);
  await page.goto(relais.url);
  await page.getByRole('link', { name: /Inbox/ }).click();
  const bash = page.locator('app-permission-card', { hasText: host });
  await expect(bash.getByRole('button', { name: 'Always for this host' })).toHaveCount(0);
  await bash.getByRole('button', { name: 'Allow once' }).click();
  const network = page.locator('app-permission-card', { hasText: `${host}:443` });
  const always = network.getByRole('button', { name: 'Always for this host' });
  await expect(always).toBeVisible();
  await expect(always).toHaveAccessibleDescription(new RegExp(`${host}:443 for every session`));
  await expectAccessible(page, 'inbox with a network prompt');
  await expect(always).not.toHaveAttribute('aria-disabled', 'true');
  await always.focus();
  await page.keyboard.press('Enter');
  await expect(network).toHaveCount(0);

  await page.goto(`${relais.base}/sessions/${id}`);
  await expect(page.locator('app-tool-call').first()).toBeVisible();
  await page.goto(`${relais.base}/rules`);
  const list = page.getByRole('region', { name: /Hosts allowed always/ });
  await expect(list.getByText(`${host}:443`)).toBeVisible();
  await expectAccessible(page, 'rules with a host allowed always');
  await list.getByRole('button', { name: `Remove ${host}:443` }).click();
  await expect(list.getByText(`${host}:443 removed`)).toBeVisible();
  await expect(list.getByRole('listitem').filter({ hasText: `${host}:443` })).toHaveCount(0);
});
