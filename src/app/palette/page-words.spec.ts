import { PAGES } from '../core/pages';
import { PAGE_KEYWORDS, SECTIONS } from './page-words';

describe('the palette words of the console pages', () => {
  it('name every page of the console, and no page it does not have', () => {
    expect(Object.keys(PAGE_KEYWORDS).sort()).toEqual(PAGES.map((page) => page.path).sort());
    for (const page of PAGES) expect(PAGE_KEYWORDS[page.path]?.trim()).toBeTruthy();
  });

  it('lead each section to a page of the console', () => {
    const paths = new Set(PAGES.map((page) => page.path));
    for (const section of SECTIONS) expect(paths.has(section.path)).toBe(true);
  });
});
