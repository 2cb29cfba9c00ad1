import { computed, signal } from '@angular/core';
import type { SearchHit, SearchPage } from '../../../../contract/api/search';

/** Asks the daemon for the next hits of `q` after `after` (a page of its search). */
export type SearchCall = (q: string, after: number) => Promise<SearchPage>;

/** Hits gathered at most per search: past them the count reads "1000+". */
export const MAX_HITS = 1_000;
/** Hits per answer asked of the daemon. */
export const PAGE_HITS = 200;

/** The words of the find bar's count, in the console's language. */
export interface FindWords {
  none: string;
  count: (current: number, total: number, scanning: boolean) => string;
}

/**
 * One conversation's search as the find bar shows it: the hits in the conversation's order,
 * gathered from its start answer by answer (the daemon scans in bounded steps), and which one
 * is shown. A newer text overtakes an older search: the older one's answers are dropped.
 */
export class FindSearch {
  readonly query = signal('');
  /** The hits' seqs, oldest first. */
  readonly hits = signal<readonly number[]>([]);
  /** The hit shown: its snippet, for the bar to say where the words are (a part the row keeps closed). */
  readonly shown = computed(() => this.snippets()[this.current()] ?? null);
  private readonly snippets = signal<readonly SearchHit[]>([]);
  /** Answers are still coming for this text. */
  readonly scanning = signal(false);
  /** More hits than MAX_HITS: the rest were not gathered. */
  readonly capped = signal(false);
  readonly failed = signal<string | null>(null);
  /** The index in `hits` of the one shown; -1 before any. */
  readonly current = signal(-1);
  private generation = 0;
  /** Waiting for a hit, or for the search's end (see untilHits). */
  private waiting: (() => void)[] = [];

  constructor(
    private readonly call: SearchCall,
    private readonly words: FindWords,
  ) {}

  /** "3 of 41", "3 of 41+" while it scans on, "No match"; empty before a text is typed. */
  readonly status = computed(() => {
    if (this.failed()) return this.failed()!;
    if (this.query().trim() === '') return '';
    const total = this.hits().length;
    const unsure = this.scanning() || this.capped();
    if (total === 0 && !unsure) return this.words.none;
    return this.words.count(this.current() + 1, total, unsure);
  });

  /** Searches for `text` from the conversation's start; resolves when every answer came (or a newer text came). */
  async search(text: string): Promise<void> {
    const generation = ++this.generation;
    this.query.set(text);
    this.hits.set([]);
    this.snippets.set([]);
    this.current.set(-1);
    this.capped.set(false);
    this.failed.set(null);
    if (text.trim() === '') return this.scanning.set(false);
    this.scanning.set(true);
    let after = 0;
    try {
      for (;;) {
        const page = await this.call(text, after);
        if (generation !== this.generation) return;
        const found = [...this.hits(), ...page.items.map((hit) => hit.seq)];
        this.snippets.update((shown) => [...shown, ...page.items].slice(0, MAX_HITS));
        this.hits.set(found.slice(0, MAX_HITS));
        if (found.length > 0) this.wake();
        if (found.length > MAX_HITS || (found.length === MAX_HITS && page.more)) {
          this.capped.set(true);
          break;
        }
        if (!page.more || page.scanned_to === null) break;
        after = page.scanned_to;
      }
    } catch (error: unknown) {
      if (generation === this.generation)
        this.failed.set(error instanceof Error ? error.message : String(error));
    } finally {
      if (generation === this.generation) {
        this.scanning.set(false);
        this.wake();
      }
    }
  }

  /** Resolves once the search has a hit to go to, or has ended (the count may go on after). */
  untilHits(): Promise<void> {
    if (this.hits().length > 0 || !this.scanning()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Drops the search: nothing is shown, answers still on the way are dropped. */
  clear(): void {
    this.generation++;
    this.query.set('');
    this.hits.set([]);
    this.snippets.set([]);
    this.current.set(-1);
    this.scanning.set(false);
    this.capped.set(false);
    this.failed.set(null);
    this.wake();
  }

  /**
   * The next hit's seq (the first at or after `fromSeq` when none is shown yet), wrapping to the
   * first once every hit is known; null when there is none to go to.
   */
  next(fromSeq: number): number | null {
    const hits = this.hits();
    if (hits.length === 0) return null;
    let index = this.current();
    if (index < 0) {
      index = hits.findIndex((seq) => seq >= fromSeq);
      if (index < 0) index = this.wrapsTo(0);
    } else if (index + 1 < hits.length) index++;
    else index = this.wrapsTo(0);
    return this.show(index);
  }

  /** The previous hit's seq (the last before `fromSeq` when none is shown yet), wrapping to the last. */
  previous(fromSeq: number): number | null {
    const hits = this.hits();
    if (hits.length === 0) return null;
    let index = this.current();
    if (index < 0) index = lastBefore(hits, fromSeq);
    else index--;
    if (index < 0) index = this.wrapsTo(hits.length - 1);
    return this.show(index);
  }

  /** Where going round the end lands: nowhere while later hits may still come. */
  private wrapsTo(index: number): number {
    return this.scanning() ? -1 : index;
  }

  private show(index: number): number | null {
    if (index < 0) return null;
    this.current.set(index);
    return this.hits()[index]!;
  }
}

/** The index of the last hit before `seq`, -1 when none is. */
function lastBefore(hits: readonly number[], seq: number): number {
  for (let i = hits.length - 1; i >= 0; i--) if (hits[i]! < seq) return i;
  return -1;
}
