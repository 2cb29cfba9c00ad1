import { SessionEvent } from '../../../../contract/api';
import { buildTimeline } from './timeline';
import { eventMaker } from '../../testing/session-events';

const { ev, restart } = eventMaker();
const toolUse = (id: string, name: string, input: Record<string, unknown>) =>
  ev({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name, input }] } });
const toolResult = (
  id: string,
  content: string,
  extra: Record<string, unknown> = {},
  isError = false,
) =>
  ev({
    type: 'user',
    message: { content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] },
    ...extra,
  });

describe('buildTimeline', () => {
  beforeEach(restart);

  it("reads the lines by the session's agent, never by their shape; Relais' own lines either way", () => {
    const claude = [toolUse('t1', 'Bash', { command: 'ls' }), toolResult('t1', 'a')];
    const codex = ev(
      { method: 'turn/start', params: { input: [{ type: 'text', text: 'hi' }] } },
      'host',
    );
    const notice = ev({ type: 'relais', subtype: 'agent_exit', code: 0 }, 'relais');
    const kinds = (agent: string) =>
      buildTimeline([...claude, codex, notice], agent).map((item) => item.kind);
    expect(kinds('claude')).toEqual(['tool', 'notice']);
    expect(kinds('codex')).toEqual(['user', 'notice']);
    expect(kinds('a third agent')).toEqual(['notice']);
  });

  it("reads an imported transcript: its prompts as the person's, its tool results paired", () => {
    const line = (extra: Record<string, unknown>) => ({
      sessionId: 'c0ffee',
      uuid: 'u',
      ...extra,
    });
    const items = buildTimeline(
      [
        ev(line({ type: 'user', message: { role: 'user', content: 'fix the tests' } })),
        ev(line({ type: 'user', isMeta: true, message: { role: 'user', content: 'caveat' } })),
        ev(
          line({
            type: 'assistant',
            message: { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
          }),
        ),
        ev(
          line({
            type: 'user',
            message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
          }),
        ),
      ],
      'claude',
    );
    expect(items.map((item) => item.kind)).toEqual(['user', 'tool']);
    expect(items[0]).toEqual(expect.objectContaining({ text: 'fix the tests' }));
    expect(items[1]).toEqual(expect.objectContaining({ result: expect.anything() }));
  });

  it('reads an imported Codex rollout: prompts, replies, commands with their output', () => {
    const item = (payload: Record<string, unknown>) =>
      ev({ timestamp: '2026-06-01T09:00:00.000Z', type: 'response_item', payload });
    const items = buildTimeline(
      [
        item({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<environment_context>' }],
        }),
        item({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'run the tests' }],
        }),
        item({
          type: 'function_call',
          name: 'exec_command',
          arguments: '{"cmd":"npm test"}',
          call_id: 'c1',
        }),
        ev({
          timestamp: '2026-06-01T09:00:01.000Z',
          type: 'event_msg',
          payload: { type: 'token_count' },
        }),
        item({ type: 'function_call_output', call_id: 'c1', output: 'ok' }),
        item({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'All green.' }],
        }),
      ],
      'codex',
    );
    expect(items.map((i) => i.kind)).toEqual(['user', 'tool', 'text']);
    expect(items[1]).toEqual(
      expect.objectContaining({
        name: 'exec_command',
        input: { cmd: 'npm test' },
        result: expect.objectContaining({ text: 'ok' }),
      }),
    );
  });

  it('pairs each tool result with its call by tool_use_id, even when interleaved', () => {
    const items = buildTimeline(
      [
        toolUse('a', 'Bash', { command: 'echo a' }),
        toolUse('b', 'Read', { file_path: '/x' }),
        toolResult('b', 'contents of x'),
        toolResult('a', 'a', {
          tool_use_result: { stdout: 'a', stderr: 'warn', interrupted: false },
        }),
      ],
      'claude',
    );
    expect(items.map((i) => i.kind)).toEqual(['tool', 'tool']);
    const [bash, read] = items;
    if (bash?.kind !== 'tool' || read?.kind !== 'tool') throw new Error('expected tools');
    expect(bash.result?.stdout).toBe('a');
    expect(bash.result?.stderr).toBe('warn');
    expect(bash.result?.seq).toBe(4);
    expect(read.result?.text).toBe('contents of x');
  });

  it('keeps a result whose call lies outside the window as an orphan', () => {
    const items = buildTimeline([toolResult('gone', 'late output')], 'claude');
    expect(items).toHaveLength(1);
    expect(items[0]?.kind).toBe('orphan-result');
  });

  it('marks errors and attaches the permission decision to the call', () => {
    const items = buildTimeline(
      [
        toolUse('c', 'Bash', { command: 'rm -rf /' }),
        ev(
          {
            type: 'relais',
            subtype: 'permission_decided',
            tool_use_id: 'c',
            decision: 'denied',
            decided_by: 'console',
            scope: 'once',
            message: 'no way',
          },
          'relais',
        ),
        toolResult('c', 'no way', {}, true),
      ],
      'claude',
    );
    const tool = items[0];
    if (tool?.kind !== 'tool') throw new Error('expected a tool');
    expect(tool.result?.isError).toBe(true);
    expect(tool.permission).toEqual({
      decision: 'denied',
      decidedBy: 'console',
      scope: 'once',
      message: 'no way',
    });
  });

  it('shows host user text, assistant text and thinking, and folds repeated contexts', () => {
    const init = {
      type: 'system',
      subtype: 'init',
      model: 'm',
      cwd: '/w',
      tools: ['Bash'],
      permissionMode: 'default',
    };
    const items = buildTimeline(
      [
        ev({ type: 'user', message: { content: [{ type: 'text', text: 'hello' }] } }, 'host'),
        ev(init),
        ev({
          type: 'assistant',
          message: {
            content: [
              { type: 'thinking', thinking: 'hmm' },
              { type: 'text', text: 'Hi' },
            ],
          },
        }),
        ev({
          type: 'result',
          subtype: 'success',
          is_error: false,
          duration_ms: 1200,
          total_cost_usd: 0.01,
        }),
        ev(init),
        ev({ type: 'control_request', request: {} }),
      ],
      'claude',
    );
    expect(items.map((i) => i.kind)).toEqual(['user', 'init', 'thinking', 'text', 'result']);
  });

  it('pairs the gate verdict (permission_auto) with its call', () => {
    const items = buildTimeline(
      [
        toolUse('r', 'Bash', { command: 'rm -rf build' }),
        ev(
          {
            type: 'relais',
            subtype: 'permission_auto',
            tool_name: 'Bash',
            tool_use_id: 'r',
            decision: 'deny',
            step: 'rule',
            rule: 'rm-recursive-or-forced',
            reason: 'rm recursive or forced deletes without recovery',
            decided_by: 'rules',
          },
          'relais',
        ),
        toolResult('r', 'PreToolUse:Bash hook error: Refused by the permission gate', {}, true),
      ],
      'claude',
    );
    const [tool] = items;
    if (tool?.kind !== 'tool') throw new Error('expected a tool');
    expect(tool.gate).toEqual({
      decision: 'deny',
      step: 'rule',
      rule: 'rm-recursive-or-forced',
      reason: 'rm recursive or forced deletes without recovery',
      decidedBy: 'rules',
    });
    expect(items).toHaveLength(1);
  });

  it('keeps the structured patch of an edit result', () => {
    const hunk = { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1, lines: ['-a', '+b'] };
    const items = buildTimeline(
      [
        toolUse('e', 'Edit', { file_path: '/x', old_string: 'a', new_string: 'b' }),
        toolResult('e', 'updated', {
          tool_use_result: { filePath: '/x', structuredPatch: [hunk] },
        }),
      ],
      'claude',
    );
    const [tool] = items;
    if (tool?.kind !== 'tool') throw new Error('expected a tool');
    expect(tool.result?.patch).toEqual([hunk]);
  });

  it('says a turn was interrupted rather than failed', () => {
    const items = buildTimeline(
      [
        ev({
          type: 'result',
          subtype: 'error_during_execution',
          is_error: true,
          terminal_reason: 'aborted_streaming',
        }),
        ev({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: 529' }),
        ev({ type: 'result', subtype: 'success', is_error: false }),
      ],
      'claude',
    );
    expect(items.map((i) => (i.kind === 'result' ? [i.outcome, i.isError, i.text] : null))).toEqual(
      [
        ['interrupted', false, null],
        ['failed', true, 'API Error: 529'],
        ['finished', false, null],
      ],
    );
  });

  it('shows a normal agent exit (code 0, or the signal of a stop) as information', () => {
    const exit = (code: number | null, signal: string | null) =>
      ev({ type: 'relais', subtype: 'agent_exit', code, signal }, 'relais');
    const tones = (events: SessionEvent[]) =>
      buildTimeline(events, 'claude').flatMap((i) => (i.kind === 'notice' ? [i.tone] : []));
    expect(tones([exit(0, null)])).toEqual(['info']);
    expect(tones([exit(1, null)])).toEqual(['error']);
    expect(tones([exit(null, 'SIGKILL')])).toEqual(['error']);
    expect(
      tones([
        ev({ type: 'relais', subtype: 'state', state: 'stopping' }, 'relais'),
        exit(null, 'SIGTERM'),
      ]),
    ).toEqual(['info', 'info']);
  });

  it('names the Relais mode when the session is created', () => {
    const items = buildTimeline(
      [
        ev(
          { type: 'relais', subtype: 'session_created', permission_mode: 'dry_run', model: 'm' },
          'relais',
        ),
      ],
      'claude',
    );
    expect(items[0]?.kind === 'notice' && items[0].text).toBe(
      'Session created (dry run mode, model m)',
    );
  });

  describe('over a window rebuilt at each scroll step', () => {
    afterEach(() => vi.restoreAllMocks());

    it('reads each event once, however often the window is rebuilt', () => {
      const done = ev({
        type: 'assistant',
        message: { content: [{ type: 'text', text: 'done' }] },
      });
      const events = [toolUse('t1', 'Bash', { command: 'ls' }), toolResult('t1', 'a b'), done];
      const first = buildTimeline(events, 'claude');
      // Events never change once received: a reading kept is what the next builds show.
      const data = done.data as { message: { content: { text: string }[] } };
      data.message.content[0]!.text = 'read again';
      const tool = events[0]!.data as { message: { content: { name: string }[] } };
      tool.message.content[0]!.name = 'read again';
      for (let step = 0; step < 5; step++) expect(buildTimeline(events, 'claude')).toEqual(first);
      expect(buildTimeline(events.slice(1), 'claude')).toHaveLength(2);
      expect(JSON.stringify(buildTimeline(events, 'claude'))).not.toContain('read again');
    });

    it('reads lines of any shape without failing: not objects, odd types, a type that lies', () => {
      const odd = [null, 'text', 42, [1, 2], {}, { type: 42 }, { type: 'assistant' }];
      const lies = { type: 'user', message: { content: [{ type: 'tool_result' }] } };
      const events = [...odd, lies, { type: 'result', is_error: 'yes' }].map((data) => ev(data));
      expect(buildTimeline(events, 'claude')).toEqual([]);
      expect(buildTimeline(events, 'claude')).toEqual([]);
    });

    it('pairs anew in every build: what one window attached never shows in another', () => {
      const call = toolUse('t1', 'Bash', { command: 'ls' });
      const decided = ev(
        { type: 'relais', subtype: 'permission_decided', tool_use_id: 't1', decision: 'allow' },
        'relais',
      );
      const result = toolResult('t1', 'out');
      const full = buildTimeline([call, decided, result], 'claude');
      expect(full[0]).toEqual(
        expect.objectContaining({
          kind: 'tool',
          result: expect.anything(),
          permission: expect.anything(),
        }),
      );
      // The call alone: neither the decision nor the result of the wider window clings to it.
      expect(buildTimeline([call], 'claude')[0]).toEqual(
        expect.objectContaining({ kind: 'tool', result: null, permission: null }),
      );
      // The result alone stands as an orphan; the wider window's call keeps its own pairing.
      expect(buildTimeline([result], 'claude').map((item) => item.kind)).toEqual(['orphan-result']);
      expect(full[0]).toEqual(expect.objectContaining({ permission: expect.anything() }));
    });
  });
});
