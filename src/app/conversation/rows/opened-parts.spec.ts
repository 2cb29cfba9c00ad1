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

/** The conversation's rows drawn, as the page draws them again after a placeholder or a trim. */
async function drawn(): Promise<HTMLElement> {
  const fixture = TestBed.createComponent(TimelineView);
  fixture.componentRef.setInput('items', buildTimeline(events, 'claude'));
  await fixture.whenStable();
  return fixture.nativeElement as HTMLElement;
}

const toggles = (element: HTMLElement) =>
  [...element.querySelectorAll<HTMLButtonElement>('button.toggle')].map((b) => [
    b.textContent?.trim(),
    b.getAttribute('aria-expanded'),
  ]);

describe('OpenedParts', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: [OpenedParts] }));

  it('a row drawn again shows the parts the person opened, and only those', async () => {
    const first = await drawn();
    expect(toggles(first)).toEqual([
      ['Show thinking', 'false'],
      ['Show input', 'false'],
      ['Show output (51 lines)', 'false'],
    ]);
    for (const label of ['Show thinking', 'Show output (51 lines)']) {
      const button = [...first.querySelectorAll<HTMLButtonElement>('button.toggle')].find(
        (b) => b.textContent?.trim() === label,
      );
      button!.click();
    }
    const again = await drawn();
    expect(toggles(again)).toEqual([
      ['Hide thinking', 'true'],
      ['Show input', 'false'],
      ['Hide output', 'true'],
    ]);
    expect(again.querySelector('.thinking .text')?.textContent).toContain('Weighing');
  });

  it('keeps a part by its row and closes it again', () => {
    const parts = TestBed.inject(OpenedParts);
    parts.set('2', 'input', true);
    expect(parts.isOpen('2', 'input')).toBe(true);
    expect(parts.isOpen('2', 'output')).toBe(false);
    expect(parts.isOpen('3', 'input')).toBe(false);
    parts.set('2', 'input', false);
    expect(parts.isOpen('2', 'input')).toBe(false);
    // Another conversation opened in the same page: the same keys name other rows.
    parts.set('2', 'output', true);
    parts.clear();
    expect(parts.isOpen('2', 'output')).toBe(false);
  });
});
