import { SessionEvent } from '../../../contract/api';
import { buildTimeline } from './timeline';

let seq = 0;
const ev = (data: unknown, source: SessionEvent['source'] = 'agent'): SessionEvent => {
  seq += 1;
  return {
    seq,
    received_at: new Date(1_000_000 + seq * 1000).toISOString(),
    received_at_ms: 1_000_000 + seq * 1000,
    source,
    data,
  };
};
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
  beforeEach(() => (seq = 0));

  it('pairs each tool result with its call by tool_use_id, even when interleaved', () => {
    const items = buildTimeline([
      toolUse('a', 'Bash', { command: 'echo a' }),
      toolUse('b', 'Read', { file_path: '/x' }),
      toolResult('b', 'contents of x'),
      toolResult('a', 'a', {
        tool_use_result: { stdout: 'a', stderr: 'warn', interrupted: false },
      }),
    ]);
    expect(items.map((i) => i.kind)).toEqual(['tool', 'tool']);
    const [bash, read] = items;
    if (bash?.kind !== 'tool' || read?.kind !== 'tool') throw new Error('expected tools');
    expect(bash.result?.stdout).toBe('a');
    expect(bash.result?.stderr).toBe('warn');
    expect(bash.result?.seq).toBe(4);
    expect(read.result?.text).toBe('contents of x');
  });

  it('keeps a result whose call lies outside the window as an orphan', () => {
    const items = buildTimeline([toolResult('gone', 'late output')]);
    expect(items).toHaveLength(1);
    expect(items[0]?.kind).toBe('orphan-result');
  });

  it('marks errors and attaches the permission decision to the call', () => {
    const items = buildTimeline([
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
    ]);
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
    const items = buildTimeline([
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
    ]);
    expect(items.map((i) => i.kind)).toEqual(['user', 'init', 'thinking', 'text', 'result']);
  });
});
