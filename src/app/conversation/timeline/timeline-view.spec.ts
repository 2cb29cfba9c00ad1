import { TestBed } from '@angular/core/testing';
import { SessionEvent } from '../../../../contract/api';
import { buildTimeline } from './timeline';
import { TimelineView } from './timeline-view';

const at = (seq: number, data: unknown, clipped?: true): SessionEvent => ({
  seq,
  received_at: '2026-01-01T00:00:00.000Z',
  received_at_ms: seq * 1000,
  source: 'agent',
  data,
  ...(clipped ? { clipped } : {}),
});
const events = [
  at(1, {
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text: 'Reading the file.' }] },
  }),
  at(2, {
    type: 'assistant',
    message: {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a.ts' } }],
    },
  }),
  at(
    3,
    {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'line\n'.repeat(50) }],
      },
    },
    true,
  ),
];

const shortRead = [
  at(4, {
    type: 'assistant',
    message: {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: '/b.ts' } }],
    },
  }),
  at(5, {
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'two\nlines' }],
    },
  }),
];

describe('TimelineView', () => {
  it('a step showing a cut text offers to read its events whole; the others do not', async () => {
    const fixture = TestBed.createComponent(TimelineView);
    fixture.componentRef.setInput('items', buildTimeline([...events, ...shortRead], 'claude'));
    fixture.componentRef.setInput('clipped', new Set([3]));
    const asked: number[][] = [];
    fixture.componentInstance.readWhole.subscribe((seqs) => asked.push(seqs));
    await fixture.whenStable();
    const element = fixture.nativeElement as HTMLElement;
    const buttons = [...element.querySelectorAll<HTMLButtonElement>('button.read-whole')];
    expect(buttons).toHaveLength(1);
    // The tool call's step: its result came cut, its call did not.
    expect(buttons[0]!.closest('.step')?.getAttribute('data-seq')).toBe('2');
    expect(buttons[0]!.closest('.clipped')?.textContent).toContain('8,000 characters');
    // Its line count is a floor: more lines may follow the cut.
    expect(element.querySelector('app-tool-call button.toggle')?.textContent?.trim()).toBe(
      'Show output (51+ lines)',
    );
    buttons[0]!.click();
    expect(asked).toEqual([[3]]);

    fixture.componentRef.setInput('clipped', new Set());
    await fixture.whenStable();
    expect(element.querySelector('button.read-whole')).toBeNull();
    expect(element.querySelector('app-tool-call button.toggle')?.textContent?.trim()).toBe(
      'Show output (51 lines)',
    );

    // A short output cannot scroll: it is no stop for Tab. A long one is, once shown.
    const outputs = () => [...element.querySelectorAll<HTMLElement>('pre.stdout')];
    expect(outputs().map((pre) => pre.getAttribute('tabindex'))).toEqual([null]);
    element.querySelector<HTMLButtonElement>('app-tool-call button.toggle')!.click();
    await fixture.whenStable();
    expect(outputs().map((pre) => pre.getAttribute('tabindex'))).toEqual(['0', null]);
  });

  it('tells each step its place in the whole conversation: its seq of the last', async () => {
    const fixture = TestBed.createComponent(TimelineView);
    fixture.componentRef.setInput('items', buildTimeline([...events, ...shortRead], 'claude'));
    fixture.componentRef.setInput('lastSeq', 9000);
    await fixture.whenStable();
    const element = fixture.nativeElement as HTMLElement;
    const places = () =>
      [...element.querySelectorAll<HTMLElement>('.step')].map((step) => [
        step.getAttribute('role'),
        step.getAttribute('aria-posinset'),
        step.getAttribute('aria-setsize'),
      ]);
    expect(places()).toEqual([
      ['article', '1', '9000'],
      ['article', '2', '9000'],
      ['article', '4', '9000'],
    ]);
    // Before the last seq is known (or while the tail outruns it), no step says it is past the end.
    fixture.componentRef.setInput('lastSeq', 0);
    await fixture.whenStable();
    expect(places().map(([, at, of]) => Number(of) >= Number(at))).toEqual([true, true, true]);
  });
});
