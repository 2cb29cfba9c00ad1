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

  /** A pager whose answers the test gives, in the order it chooses. */
  function heldPager() {
    const held: { before: string | null; answer: (page: CursorPage) => void }[] = [];
    const pager = new CursorPager<number>(
      (before) => new Promise((answer) => held.push({ before, answer })),
    );
    return { pager, held };
  }
  type CursorPage = { items: number[]; next_cursor: string | null };

  it('two reloads answered out of order: the last one asked for is what shows', async () => {
    const { pager, held } = heldPager();
    const first = pager.reload(); // the filter as it was
    const second = pager.reload(); // the filter changed
    held[1]!.answer({ items: [2], next_cursor: null });
    await second;
    held[0]!.answer({ items: [9, 8, 7], next_cursor: '7' });
    await first;
    expect(pager.items()).toEqual([2]);
    expect(pager.cursor()).toBeNull();
    expect(pager.loading()).toBe(false);
  });

  it('an older page still on its way when the list reloads is not added to the new list', async () => {
    const { pager, held } = heldPager();
    const opening = pager.reload();
    held[0]!.answer({ items: [9, 8, 7], next_cursor: '7' });
    await opening;
    const older = pager.older();
    const reloading = pager.reload();
    expect(pager.loading()).toBe(true);
    held[2]!.answer({ items: [4, 3], next_cursor: '3' });
    await reloading;
    held[1]!.answer({ items: [6, 5], next_cursor: null });
    await older;
    expect(pager.items()).toEqual([4, 3]);
    expect(pager.cursor()).toBe('3');
  });

  it('asks for one older page at a time (a double click shows it once)', async () => {
    const { pager, held } = heldPager();
    const opening = pager.reload();
    held[0]!.answer({ items: [9, 8, 7], next_cursor: '7' });
    await opening;
    const clicks = [pager.older(), pager.older()];
    expect(held.length).toBe(2);
    held[1]!.answer({ items: [6, 5], next_cursor: null });
    await Promise.all(clicks);
    expect(pager.items()).toEqual([9, 8, 7, 6, 5]);
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
