import { SessionEvent } from '../../../../contract/api';
import {
  emptyIndex,
  extendIndex,
  indexFromOutline,
  joinOutlines,
  outlineSlices,
  toolsByName,
} from './conversation-index';

const ev = (seq: number, source: SessionEvent['source'], data: unknown): SessionEvent => ({
  seq,
  received_at: '',
  received_at_ms: seq,
  source,
  data,
});
const user = (seq: number, text: string) =>
  ev(seq, 'host', { type: 'user', message: { content: [{ type: 'text', text }] } });
const tool = (seq: number, id: string, name: string, input: Record<string, unknown>) =>
  ev(seq, 'agent', {
    type: 'assistant',
    message: { content: [{ type: 'tool_use', id, name, input }] },
  });

describe('conversation index', () => {
  it("reads a Codex session's turns and tool calls, live (JSON-RPC) and imported (rollout lines)", () => {
    const rollout = (seq: number, payload: object) =>
      ev(seq, 'agent', { timestamp: '2026-06-01T09:00:00.000Z', type: 'response_item', payload });
    const started = (seq: number, item: object) =>
      ev(seq, 'agent', { method: 'item/started', params: { item } });
    const index = extendIndex(
      emptyIndex(),
      [
        ev(1, 'host', {
          method: 'turn/start',
          id: 3,
          params: { input: [{ type: 'text', text: 'run the tests' }] },
        }),
        started(2, { type: 'commandExecution', id: 'c1', command: 'npm test' }),
        ev(3, 'agent', {
          method: 'item/completed',
          params: { item: { type: 'commandExecution', id: 'c1', command: 'npm test' } },
        }),
        ev(4, 'host', {
          method: 'turn/steer',
          id: 4,
          params: { input: [{ type: 'text', text: 'and lint' }] },
        }),
        started(5, { type: 'agentMessage', id: 'm1' }),
        rollout(6, {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<environment_context>' }],
        }),
        rollout(7, {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'fix it' }],
        }),
        rollout(8, {
          type: 'function_call',
          name: 'exec_command',
          arguments: '{"cmd":"ls"}',
          call_id: 'c2',
        }),
        rollout(9, { type: 'local_shell_call', input: { command: 'pwd' } }),
      ],
      'codex',
    );
    expect(index.turns.map((t) => [t.turn, t.seq, t.text])).toEqual([
      [1, 1, 'run the tests'],
      [2, 7, 'fix it'],
    ]);
    expect(index.tools.map((t) => [t.seq, t.id, t.name, t.summary])).toEqual([
      [2, 'c1', 'Bash', 'npm test'],
      [8, 'c2', 'exec_command', 'ls'],
      [9, '9', 'local_shell_call', 'pwd'],
    ]);
    expect(index.scannedTo).toBe(9);
  });

  it('numbers turns, lists tool calls and keeps the first context', () => {
    const index = extendIndex(
      emptyIndex(),
      [
        user(1, 'first'),
        ev(2, 'agent', { type: 'system', subtype: 'init', model: 'm', cwd: '/w' }),
        tool(3, 't1', 'Bash', { command: 'ls' }),
        user(4, 'second'),
        ev(5, 'agent', { type: 'system', subtype: 'init', model: 'other' }),
        tool(6, 't2', 'Read', { file_path: '/w/a' }),
        tool(7, 't3', 'Bash', { command: 'pwd' }),
      ],
      'claude',
    );
    expect(index.turns.map((t) => [t.turn, t.seq])).toEqual([
      [1, 1],
      [2, 4],
    ]);
    expect(index.tools.map((t) => t.summary)).toEqual(['ls', '/w/a', 'pwd']);
    expect(index.init?.seq).toBe(2);
    expect(toolsByName(index.tools).map((g) => [g.name, g.calls.length])).toEqual([
      ['Bash', 2],
      ['Read', 1],
    ]);
  });

  it("indexes an imported transcript's prompts as turns and its tool calls, not its tool results", () => {
    const line = (seq: number, data: Record<string, unknown>) =>
      ev(seq, 'agent', { sessionId: 'c0ffee', ...data });
    const index = extendIndex(
      emptyIndex(),
      [
        line(1, { type: 'user', message: { content: 'fix it' } }),
        line(2, {
          type: 'assistant',
          message: {
            content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }],
          },
        }),
        line(3, {
          type: 'user',
          message: { content: [{ type: 'tool_result', tool_use_id: 't1' }] },
        }),
      ],
      'claude',
    );
    expect(index.turns.map((t) => [t.turn, t.seq, t.text])).toEqual([[1, 1, 'fix it']]);
    expect(index.tools.map((t) => t.summary)).toEqual(['ls']);
  });

  it("reads the events by the session's agent, never by their shape", () => {
    const claudeLines = [user(1, 'a'), tool(2, 't1', 'Bash', { command: 'ls' })];
    const codexTurn = ev(3, 'host', { method: 'turn/start', params: { input: [{ text: 'b' }] } });
    expect(extendIndex(emptyIndex(), [...claudeLines, codexTurn], 'claude').turns).toHaveLength(1);
    const asCodex = extendIndex(emptyIndex(), [...claudeLines, codexTurn], 'codex');
    expect([asCodex.turns.map((t) => t.text), asCodex.tools]).toEqual([['b'], []]);
    expect(extendIndex(emptyIndex(), claudeLines, undefined).turns).toEqual([]);
  });

  it('skips events already scanned', () => {
    const once = extendIndex(emptyIndex(), [user(1, 'a')], 'claude');
    expect(extendIndex(once, [user(1, 'a'), user(2, 'b')], 'claude').turns).toHaveLength(2);
  });

  it('starts from the daemon outline, then keeps extending with live events', () => {
    const outline = {
      init_seq: 2,
      turns: [{ turn: 1, seq: 1, received_at: '', text: 'first' }],
      tools: [{ seq: 3, tool_use_id: 't1', name: 'Bash', summary: 'ls' }],
      last_seq: 3,
    };
    const index = indexFromOutline(
      outline,
      ev(2, 'agent', { type: 'system', subtype: 'init', model: 'm', cwd: '/w' }),
    );
    expect(index.init?.seq).toBe(2);
    expect(index.tools[0]?.id).toBe('t1');
    const later = extendIndex(
      index,
      [tool(3, 't1', 'Bash', { command: 'ls' }), user(4, 'second')],
      'claude',
    );
    expect(later.tools).toHaveLength(1);
    expect(later.turns.map((t) => t.turn)).toEqual([1, 2]);
  });

  it('reads the outline in full past slices (cacheable for good), then the open rest', () => {
    expect(outlineSlices(0, 2000)).toEqual([{ after: 0 }]);
    expect(outlineSlices(1999, 2000)).toEqual([{ after: 0 }]);
    expect(outlineSlices(2000, 2000)).toEqual([{ after: 0, before: 2001 }, { after: 2000 }]);
    expect(outlineSlices(4500, 2000)).toEqual([
      { after: 0, before: 2001 },
      { after: 2000, before: 4001 },
      { after: 4000 },
    ]);
  });

  it("joins slices in order; the context line and last seq are the newest slice's", () => {
    const turn = (seq: number, n: number) => ({ turn: n, seq, received_at: '', text: `t${n}` });
    const joined = joinOutlines([
      { init_seq: 2, turns: [turn(1, 1)], tools: [], last_seq: 2000 },
      {
        init_seq: 2500,
        turns: [turn(2100, 2)],
        tools: [{ seq: 2200, tool_use_id: 'x', name: 'Bash', summary: 'ls' }],
        last_seq: 2600,
      },
    ]);
    expect(joined.turns.map((t) => t.turn)).toEqual([1, 2]);
    expect(joined.tools).toHaveLength(1);
    expect([joined.init_seq, joined.last_seq]).toEqual([2500, 2600]);
  });
});
