import { FIRST_PAINT_ID, dismissFirstPaint, firstPaintDismissed } from './handoff';
import { paintPreview, previewHeading } from './preview-view';

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

  it('heads the rows with the session as the console names it, from its read or not at all', () => {
    const session = { id: 'ses_0123456789abcdef', title: null, agent: 'codex', model: 'gpt-5' };
    expect(previewHeading(session)).toEqual({
      name: 'Session 89abcdef',
      shortId: '89abcdef',
      facts: 'codex · model gpt-5',
    });
    expect(previewHeading({ ...session, title: '<b>Mine</b>', model: 7 })?.name).toBe(
      '<b>Mine</b>',
    );
    expect(previewHeading({ ...session, model: 7 })?.facts).toBe('codex');
    for (const odd of [undefined, null, 'ses_x', [], { id: 3 }])
      expect(previewHeading(odd)).toBeNull();
    const root = paintPreview(document, [{ who: 'agent', text: 'hi' }], previewHeading(session));
    expect(root.querySelector('.fp-bar')?.textContent).toBe(
      '← SessionsSession 89abcdef89abcdefcodex · model gpt-5',
    );
  });
});
