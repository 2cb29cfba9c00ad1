import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';

import { ASK_QUESTION, MARKDOWN_SAMPLE } from './scripts.js';
import { startDemoModel, type DemoModel } from './server.js';
import {
  parseSse,
  postMessages,
  rebuildContent,
  type ParsedEvent,
  type RebuiltBlock,
} from './sse-client.js';

const CWD = '/tmp/demo-project';

/** A request shaped like Claude Code 2.1.332's: reminders first, env as a role:"system" entry. */
function body(
  userText: string,
  toolResults: string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const messages: unknown[] = [
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: '<system-reminder>\nAttribution for git commits…\n</system-reminder>\n',
        },
        { type: 'text', text: userText },
      ],
    },
    {
      role: 'system',
      content: [
        {
          type: 'text',
          text: `# Environment\n - Primary working directory: ${CWD}\n - Platform: linux\n`,
        },
      ],
    },
  ];
  toolResults.forEach((result, i) => {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: {} }],
    });
    messages.push({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: `toolu_${i}`, content: result, is_error: false },
      ],
    });
  });
  return { model: 'demo-sonnet', max_tokens: 32000, stream: true, messages, ...extra };
}

async function stream(
  model: DemoModel,
  request: unknown,
): Promise<{ events: ParsedEvent[]; blocks: RebuiltBlock[] }> {
  const reply = await postMessages(model.url, request);
  assert.equal(reply.status, 200, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.match(reply.headers.get('request-id') ?? '', /^req_demo_/);
  const events = parseSse(reply.text);
  for (const { event, data } of events) assert.equal(data['type'], event);
  return { events, blocks: rebuildContent(events) };
}

function stopReason(events: ParsedEvent[]): unknown {
  const delta = events.find((e) => e.event === 'message_delta')?.data['delta'] as Record<
    string,
    unknown
  >;
  return delta['stop_reason'];
}

function texts(blocks: RebuiltBlock[]): string[] {
  return blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
}

function toolUse(blocks: RebuiltBlock[]): { name: string; input: unknown } {
  const block = blocks.find((b) => b.type === 'tool_use');
  assert.ok(block && block.type === 'tool_use', 'expected a tool_use block');
  return { name: block.name, input: block.input };
}

describe('demo model HTTP surface', () => {
  let model: DemoModel;
  before(async () => {
    model = await startDemoModel();
  });
  after(() => model.close());

  it('listens on loopback and answers HEAD and GET /', async () => {
    assert.match(model.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${model.url}/api/hello`, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(`${model.url}/`)).status, 200);
  });

  it('keeps an idle connection open for minutes, not the 5 s a person may take to answer a prompt', async () => {
    // An agent sends the tool's result on the connection its last request used; a server that
    // closed it after 5 s idle races that request and the turn fails with ECONNRESET.
    const response = await fetch(`${model.url}/`);
    await response.arrayBuffer();
    const timeout = Number(/timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '')?.[1]);
    assert.ok(timeout >= 600, `keep-alive timeout ${timeout} s`);
  });

  it('answers unknown routes with a 404 in the Anthropic error shape', async () => {
    const res = await fetch(`${model.url}/v1/models`);
    assert.equal(res.status, 404);
    assert.deepEqual(Object.keys((await res.json()) as object), ['type', 'error']);
  });

  it('rejects a body that is not JSON', async () => {
    const res = await fetch(`${model.url}/v1/messages`, { method: 'POST', body: '{nope' });
    assert.equal(res.status, 400);
    const json = (await res.json()) as { error: { type: string } };
    assert.equal(json.error.type, 'invalid_request_error');
  });

  it('streams the §2.4 event sequence for a plain prompt', async () => {
    const { events, blocks } = await stream(model, body('hello there'));
    assert.deepEqual(
      events.map((e) => e.event),
      [
        'message_start',
        'ping',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    );
    assert.deepEqual(texts(blocks), ['Demo model here. You said: hello there']);
    const start = events[0]?.data['message'] as Record<string, unknown>;
    assert.equal(start['model'], 'demo-sonnet');
    assert.deepEqual(start['content'], []);
    assert.deepEqual(start['usage'], {
      input_tokens: 100,
      cache_creation_input_tokens: 20,
      cache_read_input_tokens: 50,
      output_tokens: 1,
    });
    const delta = events.find((e) => e.event === 'message_delta')?.data;
    assert.deepEqual(delta?.['delta'], { stop_reason: 'end_turn', stop_sequence: null });
    assert.equal(
      (delta?.['usage'] as Record<string, number>)['output_tokens'],
      5 + Math.ceil(38 / 4),
    );
  });

  it('uses a new message id per response and records each request', async () => {
    const before = model.requests.length;
    const a = await stream(model, body('one'));
    const b = await stream(model, body('two'));
    const id = (s: { events: ParsedEvent[] }): unknown =>
      (s.events[0]?.data['message'] as Record<string, unknown>)['id'];
    assert.notEqual(id(a), id(b));
    assert.deepEqual(
      model.requests
        .slice(before)
        .map((r) => [r.method, r.path, r.model, r.lastUserText, r.script, r.step]),
      [
        ['POST', '/v1/messages', 'demo-sonnet', 'one', 'echo', 0],
        ['POST', '/v1/messages', 'demo-sonnet', 'two', 'echo', 0],
      ],
    );
  });

  it('returns a plain Message for stream:false', async () => {
    const reply = await postMessages(model.url, body('demo:bash ls', [], { stream: false }));
    assert.equal(reply.status, 200);
    const message = JSON.parse(reply.text) as Record<string, unknown>;
    assert.equal(message['type'], 'message');
    assert.equal(message['stop_reason'], 'tool_use');
    const content = message['content'] as Record<string, unknown>[];
    assert.equal(content[1]?.['type'], 'tool_use');
    assert.match(String(content[1]?.['id']), /^toolu_demo_/);
    assert.deepEqual(content[1]?.['input'], { command: 'ls', description: 'Run the demo command' });
  });

  it('accepts a gzip-encoded body', async () => {
    const res = await fetch(`${model.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(body('zipped', [], { stream: false }))),
    });
    assert.equal(res.status, 200);
    const message = (await res.json()) as { content: { text: string }[] };
    assert.equal(message.content[0]?.text, 'Demo model here. You said: zipped');
  });
});

describe('demo model scripts', () => {
  let model: DemoModel;
  before(async () => {
    model = await startDemoModel({ delayScale: 0 });
  });
  after(() => model.close());

  it('demo:bash asks for Bash, then quotes the first 200 chars of the result', async () => {
    const first = await stream(model, body('demo:bash touch made.txt'));
    assert.equal(stopReason(first.events), 'tool_use');
    assert.deepEqual(toolUse(first.blocks), {
      name: 'Bash',
      input: { command: 'touch made.txt', description: 'Run the demo command' },
    });
    const long = 'x'.repeat(300);
    const second = await stream(model, body('demo:bash touch made.txt', [long]));
    assert.equal(stopReason(second.events), 'end_turn');
    assert.deepEqual(texts(second.blocks), [`Command result: ${'x'.repeat(200)}`]);
  });

  it('demo:write resolves a relative path against the announced cwd', async () => {
    const { blocks } = await stream(model, body('DEMO:write notes/a.txt hello  world'));
    assert.deepEqual(toolUse(blocks), {
      name: 'Write',
      input: { file_path: `${CWD}/notes/a.txt`, content: 'hello  world' },
    });
    const absolute = await stream(model, body('demo:write /elsewhere/b.txt hi'));
    assert.deepEqual(toolUse(absolute.blocks).input, {
      file_path: '/elsewhere/b.txt',
      content: 'hi',
    });
    const done = await stream(
      model,
      body('demo:write notes/a.txt hello', ['File created successfully']),
    );
    assert.deepEqual(texts(done.blocks), ['Write result: File created successfully']);
  });

  it('demo:edit asks for an Edit of old => new (\\n is a newline), then quotes the result', async () => {
    const { blocks } = await stream(model, body('demo:edit notes.txt five => 5\\nfive and a half'));
    assert.deepEqual(toolUse(blocks), {
      name: 'Edit',
      input: {
        file_path: `${CWD}/notes.txt`,
        old_string: 'five',
        new_string: '5\nfive and a half',
      },
    });
    const done = await stream(model, body('demo:edit notes.txt a => b', ['The file was updated']));
    assert.deepEqual(texts(done.blocks), ['Edit result: The file was updated']);
  });

  it('demo:markdown answers with the GitHub Markdown sample', async () => {
    const { events, blocks } = await stream(model, body('demo:markdown'));
    assert.equal(stopReason(events), 'end_turn');
    assert.deepEqual(texts(blocks), [MARKDOWN_SAMPLE]);
    assert.match(MARKDOWN_SAMPLE, /\| File \| Lines \| Status \|/);
  });

  it('demo:read reads, then reports the first line without its number', async () => {
    const { blocks } = await stream(model, body('demo:read README.md'));
    assert.deepEqual(toolUse(blocks), { name: 'Read', input: { file_path: `${CWD}/README.md` } });
    const done = await stream(model, body('demo:read README.md', ['1\tTitle line\n2\tmore']));
    assert.deepEqual(texts(done.blocks), ['First line: Title line']);
  });

  it('demo:ask asks one AskUserQuestion, then echoes the answer', async () => {
    const { blocks } = await stream(model, body('demo:ask'));
    assert.deepEqual(toolUse(blocks), {
      name: 'AskUserQuestion',
      input: { questions: [ASK_QUESTION] },
    });
    const done = await stream(model, body('demo:ask', ['"Which color?"="Blue"']));
    assert.deepEqual(texts(done.blocks), ['You answered: "Which color?"="Blue"']);
  });

  it('demo:think streams a thinking block with a signature, then text', async () => {
    const { events, blocks } = await stream(model, body('demo:think'));
    const deltas = events
      .filter((e) => e.event === 'content_block_delta' && e.data['index'] === 0)
      .map((e) => (e.data['delta'] as Record<string, unknown>)['type']);
    assert.deepEqual(deltas, ['thinking_delta', 'thinking_delta', 'signature_delta']);
    assert.equal(blocks[0]?.type, 'thinking');
    assert.ok(blocks[0]?.type === 'thinking' && blocks[0].signature.length > 0);
    assert.deepEqual(texts(blocks), ['Done thinking.']);
  });

  it('demo:steps runs N Bash steps, then finishes', async () => {
    const results: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const { events, blocks } = await stream(model, body('demo:steps 3', results));
      assert.equal(stopReason(events), 'tool_use');
      assert.deepEqual(toolUse(blocks).input, {
        command: `sh -c 'echo step ${i}'`,
        description: `Print step ${i}`,
      });
      results.push(`step ${i}`);
    }
    const done = await stream(model, body('demo:steps 3', results));
    assert.deepEqual(texts(done.blocks), ['Finished 3 steps.']);
    const start = done.events[0]?.data['message'] as { usage: { input_tokens: number } };
    assert.equal(start.usage.input_tokens, 130);
  });

  it('demo:sleep asks for a Bash that leaves two sleepers', async () => {
    const { blocks } = await stream(model, body('demo:sleep'));
    assert.deepEqual(toolUse(blocks).input, {
      command: "sh -c 'sleep 600 & sleep 600'",
      description: 'Start two long sleeps',
    });
  });

  it('demo:tools lists, reads, then summarises', async () => {
    const step0 = await stream(model, body('demo:tools'));
    assert.deepEqual(toolUse(step0.blocks), {
      name: 'Bash',
      input: { command: 'ls', description: 'List files' },
    });
    const step1 = await stream(model, body('demo:tools', ['README.md']));
    assert.deepEqual(toolUse(step1.blocks), {
      name: 'Read',
      input: { file_path: `${CWD}/README.md` },
    });
    const step2 = await stream(model, body('demo:tools', ['README.md', '1\t# Hello']));
    assert.equal(stopReason(step2.events), 'end_turn');
    assert.deepEqual(texts(step2.blocks), [
      'Summary: listed the directory and read README.md (first line: # Hello).',
    ]);
  });

  it('demo:error answers with the Anthropic error shape and retry headers', async () => {
    const cases: [number, string, string | null, string | null][] = [
      [401, 'authentication_error', 'false', null],
      [429, 'rate_limit_error', null, '1'],
      [500, 'api_error', null, null],
      [529, 'overloaded_error', null, null],
    ];
    for (const [status, type, shouldRetry, retryAfter] of cases) {
      const reply = await postMessages(model.url, body(`demo:error ${status}`));
      assert.equal(reply.status, status);
      assert.equal((JSON.parse(reply.text) as { error: { type: string } }).error.type, type);
      assert.equal(reply.headers.get('x-should-retry'), shouldRetry);
      assert.equal(reply.headers.get('retry-after'), retryAfter);
    }
  });

  it('names the known scripts for an unknown keyword', async () => {
    const { blocks } = await stream(model, body('demo:nope'));
    assert.match(
      texts(blocks)[0] ?? '',
      /^Unknown demo script "nope"\. Known scripts: bash, write/,
    );
  });

  it('routes on a newer user text that arrives after tool results', async () => {
    const request = body('demo:bash ls', ['out']);
    (request['messages'] as unknown[]).push({ role: 'user', content: 'follow-up question' });
    const { blocks } = await stream(model, request);
    assert.deepEqual(texts(blocks), ['Demo model here. You said: follow-up question']);
  });
});

describe('demo:slow', () => {
  it('spreads the reply over the requested time, scaled by delayScale', async () => {
    const model = await startDemoModel({ delayScale: 0.5 });
    try {
      const started = Date.now();
      const { blocks } = await stream(model, body('demo:slow 600'));
      const elapsed = Date.now() - started;
      assert.deepEqual(texts(blocks), ['Slow reply done.']);
      assert.ok(elapsed >= 250 && elapsed < 3000, `elapsed ${elapsed} ms`);
    } finally {
      await model.close();
    }
  });

  it('delivers the first events before the stream ends (no buffering)', async () => {
    const model = await startDemoModel();
    try {
      const res = await fetch(`${model.url}/v1/messages`, {
        method: 'POST',
        body: JSON.stringify(body('demo:slow 800')),
      });
      const reader = res.body?.getReader();
      assert.ok(reader);
      const started = Date.now();
      const first = await reader.read();
      assert.ok(Date.now() - started < 400, 'first chunk arrived late');
      assert.match(new TextDecoder().decode(first.value), /^event: message_start/);
      await reader.cancel();
    } finally {
      await model.close();
    }
  });

  it('close() ends a stream that is still running', async () => {
    const model = await startDemoModel();
    const pending = fetch(`${model.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify(body('demo:slow 60000')),
    })
      .then((res) => res.text())
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await model.close();
    await pending;
    assert.ok(Date.now() - started < 2000);
  });
});
