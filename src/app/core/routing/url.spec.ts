import { consoleHref, mergeQuery, parseConsoleUrl, writeQuery } from './url';

const ORIGIN = 'http://127.0.0.1:4100';

describe('console addresses', () => {
  it('splits a path into decoded segments, empty ones dropped', () => {
    const address = parseConsoleUrl('/sessions//ses%201/', ORIGIN);
    expect(address?.segments).toEqual(['sessions', 'ses 1']);
    expect(address?.url).toBe('/sessions/ses%201');
  });

  it('reads a key given twice as both values, and + as a space', () => {
    const address = parseConsoleUrl('/analytics?model=a&model=b&q=x+y', ORIGIN);
    expect(address?.query).toEqual({ model: ['a', 'b'], q: 'x y' });
  });

  it('refuses another origin and a path that does not decode', () => {
    expect(parseConsoleUrl('//elsewhere.test/sessions', ORIGIN)).toBeNull();
    expect(parseConsoleUrl('https://elsewhere.test/sessions', ORIGIN)).toBeNull();
    expect(parseConsoleUrl('/sessions/%E0%A4%A', ORIGIN)).toBeNull();
  });

  it('keeps a decoded %2F inside its segment, so it cannot reach another page', () => {
    expect(parseConsoleUrl('/sessions/..%2Fkey', ORIGIN)?.segments).toEqual(['sessions', '../key']);
  });

  it('writes a query readably and leaves out empty values', () => {
    expect(
      writeQuery({ from: '2026-12-01T00:00:00Z', q: 'a b&c', gone: null, none: undefined }),
    ).toBe('?from=2026-12-01T00:00:00Z&q=a%20b%26c');
    expect(writeQuery({})).toBe('');
    expect(writeQuery({ model: ['a', 'b'] })).toBe('?model=a&model=b');
  });

  it('encodes the segments of a link after the first', () => {
    expect(consoleHref(['/sessions', 'a/b?c'])).toBe('/sessions/a%2Fb%3Fc');
    expect(consoleHref('/rules', { rule: 'r 1' })).toBe('/rules?rule=r%201');
  });

  it('merges a change into a query, a null removing its key', () => {
    expect(mergeQuery({ a: '1', b: '2' }, { b: null, c: '3', d: undefined })).toEqual({
      a: '1',
      c: '3',
    });
  });

  it('round-trips what it writes', () => {
    const query = { next: '/sessions/ses_1?x=1', q: 'é ü 💡 %41' };
    expect(parseConsoleUrl('/key' + writeQuery(query), ORIGIN)?.query).toEqual(query);
  });
});
