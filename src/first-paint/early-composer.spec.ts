import { type EarlySender, earlySender } from './early-composer';
import {
  type EarlySendOutcome,
  FIRST_PAINT_ID,
  type FirstPaintDraft,
  dismissFirstPaint,
  firstPaintTypingPause,
  noteFirstPaintKey,
  onFirstPaintDraft,
} from './handoff';
import { paintPreview, previewHeading } from './preview-view';

const LIVE = { id: 'ses_0123456789abcdef', state: 'idle' };

/** A sender whose answers the test gives, one per message, in order. */
function heldSender() {
  const texts: string[] = [];
  const answers: ((outcome: EarlySendOutcome) => void)[] = [];
  const send: EarlySender = (text) => {
    texts.push(text);
    return new Promise((resolve) => answers.push(resolve));
  };
  return { send, texts, answers };
}

function type(box: HTMLTextAreaElement, value: string): void {
  box.value += value;
  box.dispatchEvent(new Event('input'));
}

function press(box: HTMLTextAreaElement, init: KeyboardEventInit): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { cancelable: true, ...init });
  box.dispatchEvent(event);
  return event;
}

const settle = () => new Promise((resolve) => setTimeout(resolve));

describe("the first paint's composer", () => {
  afterEach(() => dismissFirstPaint());

  it('sends on Enter as the console would, keeps what is typed after, and hands both over once', async () => {
    const { send, texts, answers } = heldSender();
    const root = paintPreview(document, [{ who: 'agent', text: 'hi' }], previewHeading(LIVE), send);
    const box = root.querySelector('textarea')!;
    box.focus();
    type(box, '  fix the test ');
    expect(press(box, { key: 'Enter' }).defaultPrevented).toBe(true);
    expect(box.value).toBe('');
    expect(press(box, { key: 'Enter', shiftKey: true }).defaultPrevented).toBe(false);
    expect(press(box, { key: 'Enter', isComposing: true }).defaultPrevented).toBe(false);
    press(box, { key: 'Enter' }); // An empty box sends nothing.
    type(box, '/comp');
    press(box, { key: 'Enter' }); // A command being typed: the console completes it.
    expect(box.value).toBe('/comp');
    box.value = '';
    type(box, 'and then the docs');
    box.setSelectionRange(4, 8);
    await settle();
    expect(texts).toEqual(['fix the test']);
    expect(root.querySelector('.fp-hint')?.textContent).toBe('Sending…');

    const taken: FirstPaintDraft[] = [];
    const stop = onFirstPaintDraft((draft) => taken.push(draft));
    dismissFirstPaint();
    stop();
    expect(document.getElementById(FIRST_PAINT_ID)).toBeNull();
    expect(taken).toHaveLength(1);
    const [draft] = taken;
    expect([draft!.text, draft!.start, draft!.end, draft!.focused]).toEqual([
      'and then the docs',
      4,
      8,
      true,
    ]);
    expect(draft!.sent.map((early) => early.text)).toEqual(['fix the test']);
    // The answer comes after the handoff: the console shows it, the first paint does not.
    answers[0]!({ ok: false, status: 409, code: 'session_ended', message: 'The session ended.' });
    await expect(draft!.sent[0]!.outcome).resolves.toMatchObject({ ok: false });
    await settle();
    expect(draft!.sent[0]!.handled).toBeUndefined();
    expect(texts).toEqual(['fix the test']);
  });

  it('sends one message after the other, and shows each answer while it is there; a refused text comes back', async () => {
    const { send, texts, answers } = heldSender();
    const root = paintPreview(document, [{ who: 'agent', text: 'hi' }], previewHeading(LIVE), send);
    const box = root.querySelector('textarea')!;
    const hint = root.querySelector('.fp-hint')!;
    type(box, 'one');
    press(box, { key: 'Enter' });
    type(box, 'two');
    press(box, { key: 'Enter' });
    await settle();
    expect(texts).toEqual(['one']); // The second waits for the first's answer.
    answers[0]!({ ok: true, delivery: 'queued' });
    await settle();
    expect(hint.textContent).toBe('Queued: it goes after the current turn.');
    expect(texts).toEqual(['one', 'two']);
    answers[1]!({ ok: false, status: 409, code: 'queue_full', message: 'full' });
    await settle();
    expect(hint.textContent).toBe(
      'Not sent: the queue is full. Wait for a turn to finish or remove one.',
    );
    expect(hint.classList).toContain('fp-error');
    expect(box.value).toBe('two');

    // Answered while the first paint was there: nothing left for the console.
    box.value = '';
    const taken: FirstPaintDraft[] = [];
    const stop = onFirstPaintDraft((draft) => taken.push(draft));
    dismissFirstPaint();
    stop();
    expect(taken).toEqual([]);
  });
});

describe("the first paint's composer, for the console's start", () => {
  afterEach(() => dismissFirstPaint());

  it('counts the focus given to it as a key: the person is about to type', async () => {
    const root = paintPreview(document, [{ who: 'agent', text: 'hi' }], previewHeading(LIVE), null);
    document.body.append(root);
    const box = root.querySelector('textarea')!;
    noteFirstPaintKey(performance.now() - 10_000);
    box.focus();
    let done = false;
    void firstPaintTypingPause(5_000, 10_000).then(() => (done = true));
    await settle();
    expect(done).toBe(false);
  });
});

describe('earlySender', () => {
  it("posts the message to the session with the key in a header, to the page's own origin", async () => {
    const calls: [string, RequestInit][] = [];
    const post = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return new Response(JSON.stringify({ delivery: 'sent', entry: null }), { status: 200 });
    }) as typeof fetch;
    const outcome = await earlySender('ses_abc_1', 'secret-key', post)('hello');
    expect(outcome).toEqual({ ok: true, delivery: 'sent' });
    const [url, init] = calls[0]!;
    expect(url).toBe('/api/sessions/ses_abc_1/messages');
    expect(url).not.toContain('secret-key');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer secret-key');
    expect(JSON.parse(String(init.body))).toEqual({ text: 'hello' });
    // Without credentials: Chromium's socket group apart from the console's scripts' (no cookie
    // is needed: the key is in the header).
    expect(init.credentials).toBe('omit');
  });

  it('turns an error body, a body that is not JSON and a failed fetch into outcomes', async () => {
    const answer = (response: () => Response) =>
      earlySender('ses_abc_1', 'k', (async () => response()) as typeof fetch)('x');
    await expect(
      answer(
        () =>
          new Response(JSON.stringify({ error_code: 'queue_full', message: 'Queue full' }), {
            status: 409,
          }),
      ),
    ).resolves.toEqual({ ok: false, status: 409, code: 'queue_full', message: 'Queue full' });
    await expect(answer(() => new Response('<html>', { status: 502 }))).resolves.toEqual({
      ok: false,
      status: 502,
      code: 'http_error',
      message: 'HTTP 502',
    });
    await expect(
      answer(() => {
        throw new TypeError('Failed to fetch');
      }),
    ).resolves.toMatchObject({ ok: false, status: 0, code: 'daemon_unreachable' });
  });
});
