import { ARM_DELAY_MS } from '../app/permissions/arming';
import {
  type EarlyDecider,
  type EarlyPrompt,
  earlyDecider,
  paintPrompts,
  readEarlyPrompts,
} from './early-prompts';
import { earlyPromptInViewSince, promptAnsweredEarly } from './handoff';

const prompt = (over: Partial<EarlyPrompt> = {}): EarlyPrompt => ({
  id: `perm_${Math.random().toString(36).slice(2)}`,
  tool_name: 'Bash',
  input: { command: '<b>rm</b> -rf build' },
  description: null,
  blocked_path: null,
  is_question: false,
  ...over,
});

function paint(list: EarlyPrompt[], decide: EarlyDecider) {
  const root = document.createElement('div');
  const composer = document.createElement('div');
  composer.className = 'fp-composer';
  root.append(composer);
  document.body.append(root);
  const section = paintPrompts(root, list, decide)!;
  const button = (label: string) =>
    [...section.querySelectorAll('button')].find((b) => b.textContent === label)!;
  return { root, section, button };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the first paint's prompts", () => {
  afterEach(() => (document.body.innerHTML = ''));

  it('shows a prompt at once, as text, and answers it only once armed', async () => {
    const asked = prompt();
    const decisions: unknown[] = [];
    const { root, section, button } = paint([asked], async (id, body) => {
      decisions.push([id, body]);
      return { ok: true };
    });
    expect(root.firstElementChild).toBe(section); // Before the composer.
    expect(section.getAttribute('aria-label')).toBe('Waiting for your answer');
    expect(section.querySelector('h3')?.textContent).toBe('Bash asks permission');
    expect(section.querySelector('pre')?.textContent).toBe('<b>rm</b> -rf build');
    expect(section.querySelector('b')).toBeNull();
    const allow = button('Allow once');
    expect(allow.getAttribute('aria-disabled')).toBe('true');
    await wait(0);
    const since = earlyPromptInViewSince(asked.id);
    expect(since).not.toBeNull();
    allow.click(); // Too soon: a double click meant for something else must not answer it.
    await wait(ARM_DELAY_MS - 200);
    expect(decisions).toEqual([]);
    expect(promptAnsweredEarly(asked.id)).toBe(false);
    await wait(250);
    expect(allow.getAttribute('aria-disabled')).toBe('false');
    allow.click();
    allow.click(); // Once only.
    await wait(0);
    expect(decisions).toEqual([[asked.id, { decision: 'allow', scope: 'once' }]]);
    expect(promptAnsweredEarly(asked.id)).toBe(true);
    expect(section.querySelector('.fp-prompt-status')?.textContent).toBe('Allowed.');
    expect(section.querySelector('button')).toBeNull();
  });

  it('says so when the prompt was answered elsewhere (409), and lets a failed answer be tried again', async () => {
    const elsewhere = prompt();
    const failing = prompt({ tool_name: 'Write', input: { file_path: 'a.txt' } });
    const outcomes = [
      { ok: false as const, status: 409, message: 'already decided' },
      { ok: false as const, status: 0, message: 'the daemon did not answer.' },
    ];
    const { section } = paint([elsewhere, failing], async () => outcomes.shift()!);
    await wait(ARM_DELAY_MS + 50);
    const [one, two] = [...section.querySelectorAll('article')];
    one!.querySelector('button')!.click();
    await wait(0);
    expect(one!.querySelector('.fp-prompt-status')?.textContent).toBe(
      'Already answered elsewhere.',
    );
    expect(one!.querySelector('button')).toBeNull();
    two!.querySelector<HTMLButtonElement>('.fp-deny')!.click();
    await wait(0);
    expect(two!.querySelector('.fp-prompt-status')?.textContent).toBe(
      'Not answered: the daemon did not answer.',
    );
    expect(two!.querySelectorAll('button')).toHaveLength(2);
    expect(promptAnsweredEarly(failing.id)).toBe(false); // Still waiting: the console asks it.
  });

  it("leaves a question's choices to the console, and paints nothing when nothing waits", () => {
    const { section } = paint(
      [prompt({ is_question: true, tool_name: 'AskUserQuestion' })],
      vi.fn(),
    );
    expect(section.querySelector('h3')?.textContent).toBe('Question from the agent');
    expect(section.querySelector('button')).toBeNull();
    expect(paintPrompts(document.createElement('div'), [], vi.fn())).toBeNull();
  });

  it("reads the session's pending prompts, keeping only well-formed ones, [] on failure", async () => {
    const good = prompt();
    const urls: string[] = [];
    const get = (async (url: string, init: RequestInit) => {
      urls.push(url);
      expect(init.credentials).toBe('omit');
      return new Response(JSON.stringify({ items: [good, { id: 3 }, null] }), { status: 200 });
    }) as typeof fetch;
    expect(await readEarlyPrompts('ses_abc_1', 'k', get)).toEqual([good]);
    expect(urls).toEqual(['/api/permissions?state=pending&session=ses_abc_1&limit=20']);
    const refused = (async () => new Response('{}', { status: 401 })) as typeof fetch;
    expect(await readEarlyPrompts('ses_abc_1', 'k', refused)).toEqual([]);
  });

  it("answers a prompt with the key in a header, without credentials, on the first paint's connections", async () => {
    const calls: [string, RequestInit][] = [];
    const post = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return new Response('{}', { status: 200 });
    }) as typeof fetch;
    expect(
      await earlyDecider('secret', post)('perm_1', { decision: 'allow', scope: 'once' }),
    ).toEqual({
      ok: true,
    });
    const [url, init] = calls[0]!;
    expect(url).toBe('/api/permissions/perm_1/decision');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer secret');
    expect(init.credentials).toBe('omit');
  });
});
