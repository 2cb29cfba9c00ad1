import { SessionEvent } from '../../contract/api';
import { buildTimeline } from '../app/conversation/timeline/timeline';
import { PREVIEW_TEXT_MAX, previewLines } from './preview-lines';
import { eventMaker } from '../app/testing/session-events';

const { ev, restart } = eventMaker();

const claudeStream = (): SessionEvent[] => [
  ev({ type: 'system', subtype: 'init', model: 'm', cwd: '/w', tools: [] }),
  ev({ type: 'user', message: { role: 'user', content: 'Fix the failing test' } }, 'host'),
  ev({
    type: 'assistant',
    message: {
      content: [
        { type: 'thinking', thinking: 'hmm' },
        { type: 'text', text: 'Looking at **src/**.' },
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test\n--watch' } },
      ],
    },
  }),
  ev({
    type: 'user',
    message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
  }),
  ev({
    type: 'assistant',
    parent_tool_use_id: 't1',
    message: { content: [{ type: 'text', text: 'a sub-agent speaks' }] },
  }),
  ev({ type: 'assistant', message: { content: [{ type: 'text', text: 'Done.' }] } }),
  ev({ type: 'result', subtype: 'success', result: 'Done.', duration_ms: 5 }),
];

const transcript = (): SessionEvent[] => [
  ev({ type: 'user', sessionId: 's', message: { role: 'user', content: 'Turn 0: look' } }),
  ev({ type: 'user', sessionId: 's', isMeta: true, message: { content: 'a note of its own' } }),
  ev({
    type: 'assistant',
    sessionId: 's',
    message: {
      content: [{ type: 'tool_use', id: 'r', name: 'Read', input: { file_path: 'a.ts' } }],
    },
  }),
  ev({
    type: 'assistant',
    sessionId: 's',
    message: { content: [{ type: 'text', text: 'Read it.' }] },
  }),
];

const note = (
  method: string,
  params: Record<string, unknown>,
  source: SessionEvent['source'] = 'agent',
) => ev({ method, params }, source);

const codexSession = (): SessionEvent[] => [
  note('turn/start', { input: [{ type: 'text', text: 'Make a file' }] }, 'host'),
  note('item/started', { item: { type: 'agentMessage', id: 'm1', text: '' } }),
  note('item/agentMessage/delta', { itemId: 'm1', delta: 'Creating ' }),
  note('item/agentMessage/delta', { itemId: 'm1', delta: 'it.' }),
  note('item/completed', { item: { type: 'agentMessage', id: 'm1', text: 'Creating it.' } }),
  note('item/started', {
    item: { type: 'commandExecution', id: 'c1', command: "/bin/bash -lc 'touch a.txt'" },
  }),
  note('item/completed', {
    item: {
      type: 'commandExecution',
      id: 'c1',
      command: "/bin/bash -lc 'touch a.txt'",
      status: 'completed',
    },
  }),
  note('turn/completed', { turn: { status: 'completed' } }),
];

const rollout = (): SessionEvent[] => {
  const line = (payload: Record<string, unknown>) =>
    ev({ timestamp: '2026-12-01T00:00:00Z', type: 'response_item', payload });
  return [
    line({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '<environment>' }],
    }),
    line({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List files' }] }),
    line({ type: 'function_call', name: 'shell', call_id: 'f', arguments: '{"command":"ls"}' }),
    line({ type: 'function_call_output', call_id: 'f', output: 'a.txt' }),
    line({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'One file.' }],
    }),
  ];
};

/** The rows the console's timeline shows of the same events, in the preview's terms. */
function timelineRows(events: SessionEvent[], agent: string): { who: string; text?: string }[] {
  return buildTimeline(events, agent).flatMap((item) => {
    if (item.kind === 'user') return [{ who: 'you', text: item.text }];
    if (item.kind === 'text' && !item.sub) return [{ who: 'agent', text: item.text }];
    if (item.kind === 'tool' && !item.sub) return [{ who: 'tool' }];
    return [];
  });
}

const rows = (events: SessionEvent[], agent: string) =>
  previewLines(events, 50, agent).map((line) => (line.who === 'tool' ? { who: 'tool' } : line));

describe('previewLines', () => {
  beforeEach(restart);

  for (const [what, agent, events] of [
    ["Claude Code's stream", 'claude', claudeStream],
    ['a Claude Code transcript', 'claude', transcript],
    ["Codex's app server", 'codex', codexSession],
    ['a Codex rollout', 'codex', rollout],
  ] as const)
    it(`shows the rows the conversation shows, for ${what}`, () => {
      const seen = rows(events(), agent);
      expect(seen.length).toBeGreaterThan(2);
      expect(seen).toEqual(timelineRows(events(), agent));
    });

  it('says what each tool call does in one line', () => {
    const texts = (events: SessionEvent[], agent = 'claude') =>
      previewLines(events, 50, agent)
        .filter((line) => line.who === 'tool')
        .map((line) => line.text);
    expect(texts(claudeStream())).toEqual(['Bash · npm test']);
    expect(texts(transcript())).toEqual(['Read · a.ts']);
    expect(texts(codexSession(), 'codex')).toEqual(['Bash · touch a.txt']);
    expect(texts(rollout(), 'codex')).toEqual(['shell · ls']);
  });

  it('keeps the last rows only, and cuts a huge text', () => {
    const many = Array.from({ length: 40 }, (_, n) =>
      ev({ type: 'assistant', message: { content: [{ type: 'text', text: `reply ${n}` }] } }),
    );
    many.push(ev({ type: 'user', message: { content: 'x'.repeat(1_000_000) } }, 'host'));
    const lines = previewLines(many, 5, 'claude');
    expect(lines.map((line) => line.text.slice(0, 8))).toEqual([
      'reply 36',
      'reply 37',
      'reply 38',
      'reply 39',
      'xxxxxxxx',
    ]);
    expect(lines[4]!.text.length).toBe(PREVIEW_TEXT_MAX + 1);
  });

  it('adds nothing for lines it does not know, whatever their shape', () => {
    const odd = [
      null,
      7,
      'text',
      [],
      { type: 'assistant' },
      { type: 'assistant', message: { content: 'x' } },
      { type: 'user', message: { content: [{ type: 'text', text: 42 }] } },
      { type: 'relais', subtype: 'state', state: 'ended' },
      { method: 'item/completed', params: 'x' },
    ];
    for (const agent of ['claude', 'codex'])
      expect(
        previewLines(
          odd.map((data) => ev(data)),
          10,
          agent,
        ),
      ).toEqual([]);
  });

  it("reads the lines by the session's agent, never by their shape", () => {
    expect(rows(claudeStream(), 'codex')).toEqual([]);
    expect(rows(codexSession(), 'claude')).toEqual([]);
    expect(rows(claudeStream(), 'a third agent')).toEqual([]);
    expect(previewLines(claudeStream(), 50, undefined)).toEqual([]);
  });
});
