import { returnTo, safeReturnUrl } from './return-url';

describe('return url after the key page', () => {
  it('follows a page of this console, with its query and fragment', () => {
    expect(safeReturnUrl('/sessions/ses_123')).toBe('/sessions/ses_123');
    expect(safeReturnUrl('/audit?decision=deny#x')).toBe('/audit?decision=deny#x');
    expect(returnTo('/sessions/ses_1')).toEqual({ next: '/sessions/ses_1' });
  });

  it('refuses anything that could leave the console or loop', () => {
    for (const url of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/key',
      '/key?next=/sessions',
      '/',
      '/sessions\n/x',
      '/' + 'a'.repeat(3000),
      42,
      null,
    ]) {
      expect(safeReturnUrl(url)).toBeNull();
    }
    expect(returnTo('/key')).toEqual({});
  });
});
