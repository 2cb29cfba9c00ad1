import { TestBed } from '@angular/core/testing';
import { SessionEvent } from '../../../../contract/api';
import { buildTimeline } from '../timeline/timeline';
import { TimelineView } from '../timeline/timeline-view';
import { OpenedParts } from './opened-parts';

const at = (seq: number, data: unknown): SessionEvent => ({
  seq,
  received_at: '2026-01-01T00:00:00.000Z',
  received_at_ms: seq * 1000,
  source: 'agent',
  data,
});
const assistant = (seq: number, content: unknown[]) =>
  at(seq, { type: 'assistant', message: { role: 'assistant', content } });
const events = [
  assistant(1, [{ type: 'thinking', thinking: 'Weighing the two fixes.' }]),
  assistant(2, [
    { type: 'tool_use', id: 'toolu_1', name: 'Grep', input: { pattern: 'x'.repeat(900) } },
  ]),
  at(3, {
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'out\n'.repeat(50) }],
    },
  }),
];

/** A conversation's timeline view, its rows drawn. */
async function drawn() {
  const fixture = TestBed.createComponent(TimelineView);
  fixture.componentRef.setInput('items', buildTimeline(events, 'claude'));
  await fixture.whenStable();
  return fixture;
}

const toggles = (element: HTMLElement) =>
  [...element.querySelectorAll<HTMLButtonElement>('button.toggle')].map((b) => [
    b.textContent?.trim(),
    b.getAttribute('aria-expanded'),
  ]);

const closed = [
  ['Show thinking', 'false'],
  ['Show input', 'false'],
  ['Show output (51 lines)', 'false'],
];

describe('OpenedParts', () => {
  it('a row drawn again shows the parts the person opened, and only those', async () => {
    const fixture = await drawn();
    const first = fixture.nativeElement as HTMLElement;
    expect(toggles(first)).toEqual(closed);
    for (const label of ['Show thinking', 'Show output (51 lines)']) {
      const button = [...first.querySelectorAll<HTMLButtonElement>('button.toggle')].find(
        (b) => b.textContent?.trim() === label,
      );
      button!.click();
    }
    // The rows leave the view's window (or turn placeholders) and come back.
    fixture.componentRef.setInput('items', []);
    await fixture.whenStable();
    expect(toggles(first)).toEqual([]);
    fixture.componentRef.setInput('items', buildTimeline(events, 'claude'));
    await fixture.whenStable();
    expect(toggles(first)).toEqual([
      ['Hide thinking', 'true'],
      ['Show input', 'false'],
      ['Hide output', 'true'],
    ]);
    expect(first.querySelector('.thinking .text')?.textContent).toContain('Weighing');
    // Another conversation's view (the page makes one per conversation): the same keys name other
    // rows, closed.
    expect(toggles((await drawn()).nativeElement as HTMLElement)).toEqual(closed);
  });

  it('keeps a part by its row and closes it again', () => {
    const parts = new OpenedParts();
    parts.set('2', 'input', true);
    expect(parts.isOpen('2', 'input')).toBe(true);
    expect(parts.isOpen('2', 'output')).toBe(false);
    expect(parts.isOpen('3', 'input')).toBe(false);
    parts.set('2', 'input', false);
    expect(parts.isOpen('2', 'input')).toBe(false);
  });
});
