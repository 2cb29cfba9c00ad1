import { keyFromFragment } from './api-key';

describe('keyFromFragment', () => {
  it('reads the key from the URL fragment', () => {
    expect(keyFromFragment('#key=abc_DEF-123')).toBe('abc_DEF-123');
    expect(keyFromFragment('#other=1&key=xyz')).toBe('xyz');
  });

  it('is null without a key', () => {
    expect(keyFromFragment('')).toBeNull();
    expect(keyFromFragment('#key=')).toBeNull();
  });
});

describe('ApiKey storage', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('keeps a key for the tab by default and in the browser only when asked', async () => {
    const { TestBed } = await import('@angular/core/testing');
    const { ApiKey } = await import('./api-key');
    const apiKey = TestBed.inject(ApiKey);
    apiKey.use('k1');
    expect(sessionStorage.getItem('relais.api-key')).toBe('k1');
    expect(localStorage.getItem('relais.api-key')).toBeNull();
    apiKey.setRemembered(true);
    expect(localStorage.getItem('relais.api-key')).toBe('k1');
    expect(sessionStorage.getItem('relais.api-key')).toBeNull();
    expect(apiKey.remembered()).toBe(true);
    apiKey.forget();
    expect(localStorage.getItem('relais.api-key')).toBeNull();
  });
});
