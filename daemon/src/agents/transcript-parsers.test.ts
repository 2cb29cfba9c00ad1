import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claudeTranscripts } from './claude/transcripts.js';
import { codexRollouts } from './codex/rollouts.js';
import type { LineFacts, TranscriptParser } from './transcript-reader.js';

const read = (parser: TranscriptParser, lines: unknown[]): LineFacts[] =>
  lines.map((line) => parser.line(line));
const responses = (facts: LineFacts[]) => facts.flatMap((f) => f.responses ?? []);

describe("the history import's transcript parsers", () => {
  it("count a Claude response once across its lines, its largest counts, none of a line's lies", () => {
    const assistant = (usage: unknown, content: unknown[], at: string) => ({
      type: 'assistant',
      sessionId: 's1',
      cwd: '/w',
      timestamp: at,
      requestId: 'req1',
      message: { id: 'm1', model: 'claude-x', content, usage },
    });
    const parser = claudeTranscripts.parser(null);
    const facts = read(parser, [
      {
        type: 'user',
        sessionId: 's1',
        timestamp: '2026-01-01T00:00:00Z',
        message: { content: '<command-name>/clear</command-name>' },
      },
      {
        type: 'user',
        sessionId: 's1',
        timestamp: '2026-01-01T00:00:01Z',
        message: { content: [{ type: 'text', text: '  fix it ' }] },
      },
      assistant(
        { input_tokens: 5, output_tokens: 1 },
        [{ type: 'tool_use', id: 't1', name: 'Bash' }],
        '2026-01-01T00:00:02Z',
      ),
      assistant(
        { input_tokens: -7, output_tokens: 9, cache_creation: { ephemeral_1h_input_tokens: 2 } },
        [
          { type: 'tool_use', id: 't1', name: 'Bash' },
          { type: 'tool_use', id: 't2', name: 'Read' },
          { type: 'tool_use', name: 'NoId' },
        ],
        '2026-01-01T00:00:03Z',
      ),
      {
        type: 'assistant',
        sessionId: 's1',
        message: { id: 'x', model: '<synthetic>', usage: { output_tokens: 50 } },
      },
      { type: 'summary', summary: 'Tests' },
    ]);
    assert.deepEqual(
      facts.map((f) => f.prompt ?? null),
      [null, 'fix it', null, null, null, null],
    );
    assert.equal(facts[0]!.conversationId, 's1');
    assert.equal(facts[2]!.cwd, '/w');
    assert.equal(facts[5]!.title, 'Tests');
    assert.equal(facts[4]!.model, undefined);
    assert.deepEqual(responses(facts), []);
    assert.deepEqual(parser.drain(), [
      {
        key: 'claude:m1:req1',
        model: 'claude-x',
        startedAtMs: Date.parse('2026-01-01T00:00:01Z'),
        endedAtMs: Date.parse('2026-01-01T00:00:03Z'),
        input: 5,
        output: 9,
        cacheRead: 0,
        cacheCreation: 0,
        cacheCreation1h: 2,
        reasoning: null,
        tools: [
          { id: 't1', name: 'Bash' },
          { id: 't2', name: 'Read' },
        ],
      },
    ]);
  });

  it('count a Codex response per record, or per running count in an older rollout', () => {
    const line = (type: string, payload: unknown, at = '2026-01-01T00:00:05Z') => ({
      timestamp: at,
      type,
      payload,
    });
    const usage = { input_tokens: 10, cached_input_tokens: 40, output_tokens: -3 };
    const count = (total: number) =>
      line('event_msg', {
        type: 'token_count',
        info: { last_token_usage: usage, total_token_usage: { total_tokens: total } },
      });
    const older = codexRollouts.parser(null);
    const facts = read(older, [
      line('session_meta', { id: 'th1', cwd: '/w' }, '2026-01-01T00:00:00Z'),
      line('turn_context', { model: 'gpt-x', cwd: '/w2' }),
      line(
        'response_item',
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
        '2026-01-01T00:00:01Z',
      ),
      line('response_item', { type: 'web_search_call', id: 'w1', action: { query: 'q' } }),
      line('response_item', { type: 'function_call', name: 'shell', arguments: '{}' }),
      count(50),
      count(0),
    ]);
    assert.equal(facts[0]!.conversationId, 'th1');
    assert.equal(facts[1]!.model, 'gpt-x');
    assert.equal(facts[1]!.cwd, '/w2');
    assert.equal(facts[2]!.prompt, 'go');
    const [first, second] = responses(facts);
    assert.deepEqual(first, {
      key: 'codex:th1:50',
      model: 'gpt-x',
      startedAtMs: Date.parse('2026-01-01T00:00:01Z'),
      endedAtMs: Date.parse('2026-01-01T00:00:05Z'),
      input: 0,
      output: 0,
      cacheRead: 10,
      cacheCreation: 0,
      cacheCreation1h: 0,
      reasoning: 0,
      tools: [{ id: 'w1', name: 'web_search_call' }],
    });
    assert.equal(second!.key, null);
    assert.deepEqual(second!.tools, []);

    const newer = codexRollouts.parser(null);
    const counted = responses(
      read(newer, [
        line('token_usage_record', { response_id: 'r1', usage }),
        count(60),
        line('token_usage_record', { response_id: '', usage: 'x' }),
      ]),
    );
    assert.deepEqual(
      counted.map((r) => r.key),
      ['codex:r1', null],
    );

    // A line of a rollout file is read as one even without its time.
    const untimed = codexRollouts.parser(null);
    const [untimedFacts] = read(untimed, [{ type: 'turn_context', payload: { model: 'gpt-y' } }]);
    assert.equal(untimedFacts!.model, 'gpt-y');
    const [record] = responses(
      read(untimed, [{ type: 'token_usage_record', payload: { response_id: 'r2', usage } }]),
    );
    assert.deepEqual([record!.key, record!.model, record!.cacheRead], ['codex:r2', 'gpt-y', 10]);
  });
});
