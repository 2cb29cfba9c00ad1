import { buildTimeline } from './timeline';
import { toolBody } from '../rows/tool-view';
import { eventMaker } from '../../testing/session-events';

const { ev, restart } = eventMaker();
const note = (method: string, params: Record<string, unknown>) => ev({ method, params });
const item = (method: string, value: Record<string, unknown>) =>
  note(method, { item: value, threadId: 't', turnId: 'u' });

describe('buildTimeline over Codex JSON-RPC', () => {
  beforeEach(restart);

  it('maps a turn: the prompt, the streamed message, a command paired with its output, the end', () => {
    const command = {
      type: 'commandExecution',
      id: 'call_1',
      command: "/bin/bash -lc 'touch a.txt'",
      status: 'inProgress',
    };
    const items = buildTimeline(
      [
        ev({ method: 'initialize', id: 1, params: {} }, 'host'),
        ev({ id: 1, result: {} }),
        ev(
          { method: 'turn/start', id: 4, params: { input: [{ type: 'text', text: 'hi' }] } },
          'host',
        ),
        item('item/started', { type: 'agentMessage', id: 'm1', text: '' }),
        note('item/agentMessage/delta', { itemId: 'm1', delta: 'Run' }),
        note('item/agentMessage/delta', { itemId: 'm1', delta: 'ning.' }),
        item('item/started', command),
        ev({ method: 'item/commandExecution/requestApproval', id: 0, params: {} }),
        ev({ id: 0, result: { decision: 'accept' } }, 'host'),
        item('item/completed', { ...command, status: 'completed', aggregatedOutput: 'done\n' }),
        note('turn/completed', { turn: { status: 'completed', durationMs: 900 } }),
      ],
      'codex',
    );
    expect(items.map((i) => i.kind)).toEqual(['user', 'text', 'tool', 'result']);
    const [user, text, tool, result] = items;
    expect(user).toEqual(expect.objectContaining({ text: 'hi' }));
    expect(text).toEqual(expect.objectContaining({ text: 'Running.' }));
    if (tool?.kind !== 'tool') throw new Error('not a tool');
    expect(tool.name).toBe('Bash');
    expect(tool.input['command']).toBe('touch a.txt');
    expect(tool.result?.text).toBe('done\n');
    expect(tool.result?.isError).toBe(false);
    expect(result).toEqual(expect.objectContaining({ isError: false, durationMs: 900 }));
  });

  it('a completion that came clipped never cuts what the deltas streamed, and is marked when it is all there is', () => {
    const whole = 'word '.repeat(3000);
    const completed = (text: string) => ({
      ...item('item/completed', { type: 'agentMessage', id: 'm1', text }),
      clipped: true as const,
    });
    const streamed = buildTimeline(
      [
        item('item/started', { type: 'agentMessage', id: 'm1', text: '' }),
        note('item/agentMessage/delta', { itemId: 'm1', delta: whole }),
        completed(whole.slice(0, 8000)),
      ],
      'codex',
    );
    expect(streamed).toHaveLength(1);
    expect(streamed[0]).toEqual(expect.objectContaining({ kind: 'text', text: whole }));
    expect(streamed[0]).not.toHaveProperty('clippedSeq');

    // The window starts after the deltas: the cut completion is what there is, and it says so.
    const started = item('item/started', { type: 'agentMessage', id: 'm1', text: '' });
    const end = completed(whole.slice(0, 8000));
    const alone = buildTimeline([started, end], 'codex');
    expect(alone[0]).toEqual(
      expect.objectContaining({ text: whole.slice(0, 8000), clippedSeq: end.seq }),
    );
  });

  it('closes a message an interrupt left open, and says the turn was interrupted', () => {
    const items = buildTimeline(
      [
        item('item/started', { type: 'agentMessage', id: 'm1', text: '' }),
        note('item/agentMessage/delta', { itemId: 'm1', delta: 'Half a' }),
        item('item/started', { type: 'agentMessage', id: 'm2', text: '' }),
        note('turn/completed', { turn: { status: 'interrupted', durationMs: 300 } }),
      ],
      'codex',
    );
    expect(items.map((i) => i.kind)).toEqual(['text', 'result']);
    expect(items[1]).toEqual(expect.objectContaining({ isError: true, text: 'Interrupted' }));
  });

  it('shows a file change as a write or a diff, and attaches Relais decisions by item id', () => {
    const update = {
      type: 'fileChange',
      id: 'call_2',
      changes: [{ path: '/w/a.txt', kind: { type: 'update' }, diff: '@@ -1 +1 @@\n-old\n+new\n' }],
      status: 'inProgress',
    };
    const items = buildTimeline(
      [
        item('item/started', {
          type: 'fileChange',
          id: 'call_1',
          changes: [{ path: '/w/b.txt', kind: { type: 'add' }, diff: 'hello\n' }],
          status: 'inProgress',
        }),
        item('item/started', update),
        ev(
          {
            type: 'relais',
            subtype: 'permission_decided',
            tool_use_id: 'call_2',
            decision: 'denied',
            decided_by: 'console',
          },
          'relais',
        ),
        item('item/completed', { ...update, status: 'declined' }),
      ],
      'codex',
    );
    const [write, edit] = items;
    if (write?.kind !== 'tool' || edit?.kind !== 'tool') throw new Error('not tools');
    expect(toolBody(write)).toEqual({ kind: 'path', path: '/w/b.txt', content: 'hello\n' });
    expect(toolBody(edit)).toEqual({
      kind: 'edit',
      path: '/w/a.txt',
      numbered: true,
      rows: [
        { kind: 'del', oldNo: 1, newNo: null, text: 'old' },
        { kind: 'add', oldNo: null, newNo: 1, text: 'new' },
      ],
    });
    expect(edit.permission?.decision).toBe('denied');
    expect(edit.result?.isError).toBe(true);
  });
});
