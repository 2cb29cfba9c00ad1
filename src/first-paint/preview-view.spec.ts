import { FIRST_PAINT_ID, dismissFirstPaint, firstPaintDismissed } from './handoff';
import { paintPreview } from './preview-view';

describe('paintPreview', () => {
  afterEach(() => document.getElementById(FIRST_PAINT_ID)?.remove());

  it('lays out the rows as text, never as markup', () => {
    const hostile = '<img src=x onerror="window.__owned=1"><script>window.__owned=1</script>';
    const root = paintPreview(document, [
      { who: 'you', text: hostile },
      { who: 'agent', text: 'Done **now**.' },
      { who: 'tool', text: 'Bash · <b>ls</b>' },
    ]);
    expect(root.id).toBe(FIRST_PAINT_ID);
    expect(root.getAttribute('aria-busy')).toBe('true');
    expect(root.querySelector('img, script, b')).toBeNull();
    const rows = [...root.querySelectorAll('.fp-row')].map((row) => row.textContent);
    expect(rows).toEqual([`You${hostile}`, 'AgentDone **now**.', 'Bash · <b>ls</b>']);
  });

  it('goes when the console dismisses it, and says so to a paint still on its way', () => {
    paintPreview(document, [{ who: 'agent', text: 'hi' }]);
    dismissFirstPaint();
    expect(document.getElementById(FIRST_PAINT_ID)).toBeNull();
    expect(firstPaintDismissed()).toBe(true);
  });
});
