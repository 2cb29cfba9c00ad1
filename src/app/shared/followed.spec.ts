import { signal } from '@angular/core';
import { followed, latest } from './followed';

describe('followed', () => {
  it('computes from its source, keeps what is set, and computes again when the source changes', () => {
    const page = signal({ items: ['a'] });
    const rows = followed(page, (p) => p.items);
    expect(rows()).toEqual(['a']);
    rows.update((shown) => [...shown, 'b']);
    expect(rows()).toEqual(['a', 'b']);
    page.set({ items: ['a'] });
    expect(rows()).toEqual(['a']);
  });

  it('a source equal in value but new in identity still puts the computed value back', () => {
    const cursor = signal<{ next: string | null }>({ next: 'c1' });
    const next = followed(cursor, (page) => page.next);
    next.set('c2');
    expect(next()).toBe('c2');
    cursor.set({ next: 'c1' });
    expect(next()).toBe('c1');
  });
});

describe('latest', () => {
  it('keeps the last defined value while the source has none', () => {
    const source = signal<number | undefined>(undefined);
    const shown = latest(source);
    expect(shown()).toBeNull();
    source.set(1);
    expect(shown()).toBe(1);
    source.set(undefined);
    expect(shown()).toBe(1);
    source.set(2);
    expect(shown()).toBe(2);
  });
});
