/** Spaces as French typesetting puts them (narrow and plain no-break) read as plain ones here. */
const plain = (text: string): string => text.replace(/[\u00a0\u202f]/g, ' ');

type Localize = { locale?: string };

describe('formats in the console language', () => {
  let before: string | undefined;
  beforeEach(() => {
    before = ($localize as unknown as Localize).locale;
    vi.resetModules();
  });
  afterEach(() => {
    ($localize as unknown as Localize).locale = before;
    vi.resetModules();
  });

  it('writes French numbers, money, percentages, dates and times', async () => {
    ($localize as unknown as Localize).locale = 'fr';
    const { formatNumber, formatUsd, formatPercent, dateFormat, intlLocale } =
      await import('./locale-format');
    expect(intlLocale()).toBe('fr-FR');
    expect(plain(formatNumber(1234.5, 1))).toBe('1 234,5');
    expect(plain(formatUsd(1234.5, 2))).toBe('1 234,50 $');
    expect(plain(formatPercent(0.125))).toBe('12,5 %');
    const at = new Date(2026, 11, 4, 14, 5, 9).getTime();
    expect(dateFormat({ hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(at)).toBe(
      '14:05:09',
    );
    expect(plain(dateFormat({ day: 'numeric', month: 'short', year: 'numeric' }).format(at))).toBe(
      '4 déc. 2026',
    );
  });

  it('keeps English figures as they were', async () => {
    ($localize as unknown as Localize).locale = 'en';
    const { formatNumber, formatUsd, formatPercent } = await import('./locale-format');
    expect(formatNumber(1234.5, 1)).toBe('1,234.5');
    expect(formatUsd(0.0021, 4)).toBe('$0.0021');
    expect(formatPercent(0.25)).toBe('25.0%');
  });
});
