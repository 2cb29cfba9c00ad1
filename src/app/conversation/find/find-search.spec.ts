import type { SearchPage } from '../../../../contract/api/search';
import type { TimelineItem } from '../timeline/timeline-item';
import { FindSearch, MAX_HITS, type SearchCall } from './find-search';
import { rowHolding } from './page-find';

const words = {
  none: 'No match',
  count: (current: number, total: number, scanning: boolean) =>
    `${current} of ${total}${scanning ? '+' : ''}`,
};

/** A daemon holding hits at `seqs`, answering `perAnswer` events of `last` at a time. */
function daemon(
  seqs: number[],
  last: number,
  perAnswer: number,
): { call: SearchCall; asked: number[] } {
  const asked: number[] = [];
  const call: SearchCall = (_q, after) => {
    asked.push(after);
    const to = Math.min(last, after + perAnswer);
    const page: SearchPage = {
      items: seqs
        .filter((seq) => seq > after && seq <= to)
        .map((seq) => ({ seq, snippet: 'x', hit_start: 0, hit_end: 1 })),
      scanned_to: to,
      more: to < last,
      scanned: to - after,
    };
    return Promise.resolve(page);
  };
  return { call, asked };
}

describe('the find bar’s search', () => {
  it('lets a go wait for the first hit, not for the whole scan, nor forever when there is none', async () => {
    const { call, asked } = daemon([2500, 9000], 10_000, 2_000);
    const search = new FindSearch(call, words);
    const scanning = search.search('needle');
    await search.untilHits();
    expect(search.hits()).toEqual([2500]);
    expect(search.scanning()).toBe(true);
    await scanning;
    expect(asked).toEqual([0, 2000, 4000, 6000, 8000]);

    const none = new FindSearch(daemon([], 10_000, 2_000).call, words);
    const empty = none.search('absent');
    await none.untilHits();
    expect(none.scanning()).toBe(false);
    await empty;
  });

  it('gathers the hits of the whole conversation, answer after answer, oldest first', async () => {
    const { call, asked } = daemon([3, 2500, 9000], 10_000, 2_000);
    const search = new FindSearch(call, words);
    await search.search('needle');
    expect(search.hits()).toEqual([3, 2500, 9000]);
    expect(asked).toEqual([0, 2000, 4000, 6000, 8000]);
    expect(search.scanning()).toBe(false);
    expect(search.status()).toBe('0 of 3');
  });

  it('says "+" while answers are still coming, and "No match" once none came', async () => {
    let release!: (page: SearchPage) => void;
    const search = new FindSearch(
      () => new Promise<SearchPage>((resolve) => (release = resolve)),
      words,
    );
    const done = search.search('x');
    expect(search.status()).toBe('0 of 0+');
    release({ items: [], scanned_to: 10, more: false, scanned: 10 });
    await done;
    expect(search.status()).toBe('No match');
  });

  it('goes from the view: Enter to the first hit at or below it, Shift+Enter above, and round', async () => {
    const search = new FindSearch(daemon([10, 20, 30], 40, 100).call, words);
    await search.search('x');
    expect(search.shown()).toBeNull();
    expect(search.next(15)).toBe(20);
    expect(search.status()).toBe('2 of 3');
    expect(search.shown()?.seq).toBe(20);
    expect(search.next(0)).toBe(30);
    expect(search.next(0)).toBe(10);
    expect(search.previous(0)).toBe(30);
    await search.search('y');
    expect(search.previous(25)).toBe(20);
    await search.search('z');
    expect(search.next(35)).toBe(10);
  });

  it('does not go round the end while later hits may still come', async () => {
    let release!: (page: SearchPage) => void;
    const search = new FindSearch(
      () => new Promise<SearchPage>((resolve) => (release = resolve)),
      words,
    );
    const first = search.search('x');
    release({
      items: [{ seq: 5, snippet: 'x', hit_start: 0, hit_end: 1 }],
      scanned_to: 100,
      more: true,
      scanned: 100,
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(search.next(0)).toBe(5);
    expect(search.next(0)).toBeNull();
    expect(search.current()).toBe(0);
    search.clear();
    expect(search.scanning()).toBe(false);
    void first;
  });

  it('drops the answers of a text typed over', async () => {
    const pending: ((page: SearchPage) => void)[] = [];
    const search = new FindSearch(
      () => new Promise<SearchPage>((resolve) => pending.push(resolve)),
      words,
    );
    const old = search.search('old');
    const fresh = search.search('new');
    pending[1]!({
      items: [{ seq: 7, snippet: 'n', hit_start: 0, hit_end: 1 }],
      scanned_to: 9,
      more: false,
      scanned: 9,
    });
    pending[0]!({
      items: [{ seq: 1, snippet: 'o', hit_start: 0, hit_end: 1 }],
      scanned_to: 9,
      more: false,
      scanned: 9,
    });
    await Promise.all([old, fresh]);
    expect(search.hits()).toEqual([7]);
    expect(search.query()).toBe('new');
  });

  it('stops gathering at MAX_HITS and says there are more', async () => {
    const many = Array.from({ length: MAX_HITS + 50 }, (_, i) => i + 1);
    const search = new FindSearch(daemon(many, many.length + 10, 300).call, words);
    await search.search('x');
    expect(search.hits().length).toBe(MAX_HITS);
    expect(search.capped()).toBe(true);
    expect(search.status()).toBe(`0 of ${MAX_HITS}+`);
  });

  it('says what failed, and nothing for an empty text', async () => {
    const search = new FindSearch(() => Promise.reject(new Error('Daemon gone')), words);
    await search.search('x');
    expect(search.status()).toBe('Daemon gone');
    await search.search('  ');
    expect(search.status()).toBe('');
  });
});

describe('the row holding a found event', () => {
  const base = { ms: 0 };
  const result = (seq: number) => ({
    seq,
    ms: 0,
    isError: false,
    text: '',
    stdout: null,
    stderr: null,
    interrupted: false,
    patch: null,
  });
  const items: TimelineItem[] = [
    { ...base, key: 'u1', seq: 1, kind: 'user', text: 'go' },
    { ...base, key: 't2', seq: 2, kind: 'text', text: 'a', sub: false },
    {
      ...base,
      key: 'c2',
      seq: 2,
      kind: 'tool',
      id: 'c',
      name: 'Bash',
      input: {},
      result: result(5),
      permission: null,
      gate: null,
      sub: false,
    },
    { ...base, key: 't3', seq: 3, kind: 'text', text: 'b', sub: false, clippedSeq: 6 },
  ];

  it('is the row the event starts, the call its result joined, the reply it completed', () => {
    expect(rowHolding(items, 1)!.key).toBe('u1');
    expect(rowHolding(items, 2)!.key).toBe('t2');
    expect(rowHolding(items, 5)!.key).toBe('c2');
    expect(rowHolding(items, 6)!.key).toBe('t3');
    expect(rowHolding(items, 4)!.key).toBe('t3');
    expect(rowHolding(items, 0)).toBeNull();
  });
});
