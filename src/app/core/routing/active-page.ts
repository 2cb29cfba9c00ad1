import { Signal } from '@angular/core';
import type { QueryParams } from './url';

/**
 * What the page being shown was opened with, given to it by the outlet. Its signals change only
 * while this page is the one shown: a page being left never sees the next page's query.
 */
export abstract class ActivePage {
  abstract readonly params: Signal<Readonly<Record<string, string>>>;
  abstract readonly query: Signal<QueryParams>;
}
