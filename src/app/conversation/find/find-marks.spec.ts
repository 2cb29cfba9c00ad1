import { clearFound, markFound } from './find-marks';

/** The browser's highlight registry, as the test's DOM has none: what was marked, by text. */
function fakeHighlights(): { marked: () => string[] } {
  const set = new Map<string, { ranges: Range[] }>();
  const scope = globalThis as unknown as Record<string, unknown>;
  scope['CSS'] = { highlights: set };
  scope['Highlight'] = class {
    readonly ranges: Range[];
    constructor(...ranges: Range[]) {
      this.ranges = ranges;
    }
  };
  return { marked: () => (set.get('relais-find')?.ranges ?? []).map((range) => range.toString()) };
}

describe('find marks', () => {
  afterEach(() => {
    clearFound();
    const scope = globalThis as unknown as Record<string, unknown>;
    delete scope['CSS'];
    delete scope['Highlight'];
  });

  it('marks the words found whatever their case and accents, in the text’s own offsets', () => {
    const { marked } = fakeHighlights();
    const row = document.createElement('div');
    row.innerHTML = '<p>Un <b>CAFÉ</b> crème, un cafe\u0301 noir, et un cafe.</p>';
    markFound(row, 'café');
    expect(marked()).toEqual(['CAFÉ', 'cafe', 'cafe']);
    markFound(row, 'CREME');
    expect(marked()).toEqual(['crème']);
  });

  it('marks nothing for a query of accents alone, and nothing where no registry is', () => {
    const { marked } = fakeHighlights();
    const row = document.createElement('div');
    row.textContent = 'e\u0301te\u0301';
    markFound(row, '\u0301');
    expect(marked()).toEqual([]);
    delete (globalThis as unknown as Record<string, unknown>)['CSS'];
    expect(() => markFound(row, 'ete')).not.toThrow();
  });
});
