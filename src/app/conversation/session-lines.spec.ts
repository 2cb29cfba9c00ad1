import { sessionLines } from './session-lines';

describe("a session's live lines", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are read without credentials, on connections apart from the page scripts (the key is in a header)', async () => {
    const inits: RequestInit[] = [];
    vi.stubGlobal('fetch', async (_input: RequestInfo | URL, init?: RequestInit) => {
      inits.push(init ?? {});
      return new Response('', { status: 200 });
    });
    const subscription = sessionLines('ses_abc', 10, () => 'secret-key').subscribe();
    await vi.waitFor(() => expect(inits.length).toBeGreaterThan(0));
    subscription.unsubscribe();
    expect(inits[0]?.credentials).toBe('omit');
    expect(new Headers(inits[0]?.headers).get('Authorization')).toBe('Bearer secret-key');
  });
});
