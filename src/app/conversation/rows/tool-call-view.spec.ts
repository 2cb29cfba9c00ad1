import { TimelineItem, ToolResult } from '../timeline/timeline';
import { toolCallView } from './tool-call-view';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

const call = (
  name: string,
  input: Record<string, unknown>,
  more: Partial<ToolItem> = {},
): ToolItem => ({
  key: '1:0',
  seq: 1,
  ms: 0,
  kind: 'tool',
  id: 'toolu_1',
  name,
  input,
  result: null,
  permission: null,
  gate: null,
  sub: false,
  ...more,
});

const result = (more: Partial<ToolResult>): ToolResult => ({
  seq: 2,
  ms: 1,
  isError: false,
  interrupted: false,
  text: '',
  stdout: null,
  stderr: null,
  patch: null,
  ...more,
});

describe('what a tool call card shows', () => {
  it('a Bash call with its output: lines counted across stdout and stderr, long past 12', () => {
    const output = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n');
    const view = toolCallView(
      call(
        'Bash',
        { command: 'ls' },
        { result: result({ stdout: output, stderr: 'warn\nagain' }) },
      ),
      false,
      true,
      false,
    );
    expect(view.body).toEqual({ kind: 'bash', command: 'ls' });
    expect(view.status).toBe('ok');
    expect(view.statusText).toBe('succeeded');
    expect(view.output).toEqual({ stdout: output, stderr: 'warn\nagain' });
    expect(view.outputLines).toBe('13 lines');
    expect(view.outputLong).toBe(true);
    expect(view.inputLong).toBe(false);
  });

  it('a result cut by the daemon counts its lines as "at least"', () => {
    const view = toolCallView(
      call('Read', { file_path: '/a' }, { result: result({ text: 'a\nb' }) }),
      false,
      true,
      true,
    );
    expect(view.output).toEqual({ stdout: 'a\nb', stderr: '' });
    expect(view.outputLines).toBe('2+ lines');
    expect(view.outputLong).toBe(false);
  });

  it('no result yet: waiting, running or no result, and a question waits for an answer', () => {
    expect(toolCallView(call('Bash', { command: 'x' }), true, true, false).statusText).toBe(
      'waiting for permission',
    );
    expect(toolCallView(call('AskUserQuestion', {}), true, true, false).statusText).toBe(
      'waiting for your answer',
    );
    expect(toolCallView(call('Bash', { command: 'x' }), false, true, false).statusText).toBe(
      'running…',
    );
    const ended = toolCallView(call('Bash', { command: 'x' }), false, false, false);
    expect([ended.statusText, ended.output, ended.outputLines]).toEqual(['no result', null, '']);
  });

  it('a call the gate refused by rule says which rule, in the refusal words', () => {
    const gate = {
      decision: 'deny',
      step: 'rule',
      rule: 'no-rm',
      reason: 'Deletes files.',
      decidedBy: null,
    };
    const view = toolCallView(call('Bash', { command: 'rm -rf /' }, { gate }), false, true, false);
    expect(view.status).toBe('refused');
    expect(view.refusal).toEqual({ kind: 'rule', rule: 'no-rm', reason: 'Deletes files' });
    expect(view.refusalDetail).not.toBe('');
  });
});
