import { CursorPager } from './cursor-pager';

describe('CursorPager', () => {
  const pages: Record<string, { items: number[]; next_cursor: string | null }> = {
    newest: { items: [9, 8, 7], next_cursor: '7' },
    '7': { items: [6, 5], next_cursor: null },
  };

  it('reads the newest page, then older ones, and knows when none remain', async () => {
    const asked: (string | null)[] = [];
    const pager = new CursorPager<number>(async (before) => {
      asked.push(before);
      return pages[before ?? 'newest']!;
    });
    await pager.reload();
    expect(pager.items()).toEqual([9, 8, 7]);
    expect(pager.cursor()).toBe('7');
    await pager.older();
    expect(pager.items()).toEqual([9, 8, 7, 6, 5]);
    expect(pager.cursor()).toBeNull();
    await pager.reload();
    expect(pager.items()).toEqual([9, 8, 7]);
    expect(asked).toEqual([null, '7', null]);
  });

  it('keeps what is shown when a page fails, and says why', async () => {
    let fail = false;
    const pager = new CursorPager<number>(async (before) => {
      if (fail) throw new Error('offline');
      return pages[before ?? 'newest']!;
    });
    await pager.reload();
    fail = true;
    await pager.older();
    expect(pager.items()).toEqual([9, 8, 7]);
    expect(pager.error()).not.toBeNull();
    expect(pager.loading()).toBe(false);
  });

  it('merges with the given rule and accepts live changes', async () => {
    const pager = new CursorPager<number>(
      async () => ({ items: [3, 1], next_cursor: null }),
      (shown, page) => [...new Set([...shown, ...page])].sort((a, b) => b - a),
    );
    await pager.reload();
    pager.update((shown) => [4, ...shown]);
    expect(pager.items()).toEqual([4, 3, 1]);
  });
});
