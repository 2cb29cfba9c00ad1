import {
  FIRST_PAINT_ID,
  type FirstPaintDraft,
  dismissFirstPaint,
  firstPaintDismissed,
  onFirstPaintDraft,
} from './handoff';
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
    expect(root.querySelector('[role="region"]')?.getAttribute('aria-busy')).toBe('true');
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
      takesMessages: false, // No state read: no composer.
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

  it('gives a live session a composer whose text, selection and focus the console takes', () => {
    const live = { id: 'ses_0123456789abcdef', title: null, state: 'idle', origin: 'relais' };
    expect(previewHeading(live)?.takesMessages).toBe(true);
    expect(previewHeading({ ...live, state: 'working' })?.takesMessages).toBe(true);
    for (const over of [{ state: 'ended' }, { state: 'stopping' }, { origin: 'imported' }])
      expect(previewHeading({ ...live, ...over })?.takesMessages, JSON.stringify(over)).toBe(false);

    const root = paintPreview(document, [{ who: 'agent', text: 'hi' }], previewHeading(live));
    const box = root.querySelector('textarea')!;
    expect(box.getAttribute('aria-label')).toBe('Message to the agent');
    const enter = new KeyboardEvent('keydown', { key: 'Enter', cancelable: true });
    box.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true); // No sender here (early-composer.spec): the text stays.
    const newline = new KeyboardEvent('keydown', {
      key: 'Enter',
      shiftKey: true,
      cancelable: true,
    });
    box.dispatchEvent(newline);
    expect(newline.defaultPrevented).toBe(false);

    box.value = 'fix the test';
    box.focus();
    box.setSelectionRange(4, 7);
    const taken: FirstPaintDraft[] = [];
    const stop = onFirstPaintDraft((draft) => taken.push(draft));
    dismissFirstPaint();
    stop();
    expect(taken).toEqual([{ text: 'fix the test', start: 4, end: 7, focused: true, sent: [] }]);
    expect(document.getElementById(FIRST_PAINT_ID)).toBeNull();
  });

  it('has no composer for a conversation that takes no message, and hands over nothing untouched', () => {
    const root = paintPreview(document, [{ who: 'agent', text: 'hi' }], null);
    expect(root.querySelector('textarea')).toBeNull();
    const live = { id: 'ses_0123456789abcdef', state: 'idle' };
    paintPreview(document, [{ who: 'agent', text: 'hi' }], previewHeading(live));
    const taken: FirstPaintDraft[] = [];
    const stop = onFirstPaintDraft((draft) => taken.push(draft));
    dismissFirstPaint();
    stop();
    expect(taken).toEqual([]);
  });
});
