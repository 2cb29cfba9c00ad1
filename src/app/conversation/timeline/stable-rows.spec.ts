import { buildTimeline } from './timeline';
import { stableRows } from './stable-rows';
import { eventMaker } from '../../testing/session-events';

const { ev, restart } = eventMaker();
/** What Relais wrote to the agent: the person's prompt. */
const prompt = (text: string) =>
  ev({ type: 'user', message: { role: 'user', content: text } }, 'host');
const reply = (text: string) =>
  ev({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
const toolUse = (id: string) =>
  ev({
    type: 'assistant',
    message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }] },
  });
const toolResult = (id: string) =>
  ev({
    type: 'user',
    message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'a' }] },
  });

describe('stableRows', () => {
  beforeEach(restart);

  it('keeps the objects of the rows a new window still shows, and takes the new ones', () => {
    const events = [prompt('one'), reply('two'), toolUse('t1'), toolResult('t1'), reply('three')];
    const keep = stableRows();
    const first = keep(buildTimeline(events.slice(0, 4), 'claude'));
    const second = keep(buildTimeline(events.slice(1), 'claude'));
    expect(second.map((row) => row.kind)).toEqual(['text', 'tool', 'text']);
    expect(second[0]).toBe(first[1]);
    expect(second[1]).toBe(first[2]);
    expect(second[2]).toEqual(expect.objectContaining({ text: 'three' }));
  });

  it('gives a row that changed as its new object: a tool call whose result came since', () => {
    const events = [toolUse('t1'), toolResult('t1')];
    const keep = stableRows();
    const [waiting] = keep(buildTimeline(events.slice(0, 1), 'claude'));
    const [done] = keep(buildTimeline(events, 'claude'));
    expect(done).not.toBe(waiting);
    expect(done).toEqual(expect.objectContaining({ kind: 'tool', result: expect.anything() }));
  });

  it('gives back the same array when nothing changed, and a new one when a row moved out', () => {
    const events = [prompt('one'), reply('two')];
    const keep = stableRows();
    const first = keep(buildTimeline(events, 'claude'));
    expect(keep(buildTimeline(events, 'claude'))).toBe(first);
    const shorter = keep(buildTimeline(events.slice(1), 'claude'));
    expect(shorter).not.toBe(first);
    expect(shorter).toEqual([first[1]]);
  });

  it('keeps Codex rows, whose parts each build makes anew', () => {
    const item = (method: string, value: Record<string, unknown>) =>
      ev({ method, params: { item: value, threadId: 't', turnId: 'u' } });
    const command = { type: 'commandExecution', id: 'c1', command: 'ls', status: 'inProgress' };
    const events = [
      item('item/started', command),
      item('item/completed', { ...command, status: 'completed', aggregatedOutput: 'a\n' }),
    ];
    const keep = stableRows();
    const [first] = keep(buildTimeline(events, 'codex'));
    const [again] = keep(buildTimeline([...events], 'codex'));
    expect(again).toBe(first);
  });

  it('never keeps a row whose nested values differ', () => {
    const keep = stableRows();
    const [first] = keep(buildTimeline([toolUse('t1')], 'claude'));
    restart();
    const changed = ev({
      type: 'assistant',
      message: {
        content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'pwd' } }],
      },
    });
    const [second] = keep(buildTimeline([changed], 'claude'));
    expect(second).not.toBe(first);
    expect(second).toEqual(expect.objectContaining({ input: { command: 'pwd' } }));
  });
});
