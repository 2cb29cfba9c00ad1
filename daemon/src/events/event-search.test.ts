import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SearchPage } from '../../../contract/api/search.js';
import { insertSessionRow } from '../testing/fixtures.js';
import { claudeLines, codexLines } from '../testing/transcripts.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SCAN_EVENTS } from './event-search.js';

const claudeStream: [source: 'agent' | 'host' | 'relais', line: unknown][] = [
  ['agent', { type: 'system', subtype: 'init', model: 'm', cwd: '/tmp/proj', tools: ['Bash'] }],
  ['host', { type: 'user', message: { role: 'user', content: 'Répare le parseur ÉCLAIR, stp' } }],
  [
    'agent',
    {
      type: 'assistant',
      message: {
        id: 'msg_1',
        content: [
          { type: 'thinking', thinking: 'The Straße module is odd' },
          { type: 'text', text: 'Looking at "quoted" words\nand C:\\dir paths' },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'Bash',
            input: { command: "grep -rn 'rate 50%_x' src/", description: 'find the rate' },
          },
        ],
      },
    },
  ],
  [
    'agent',
    {
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'src/a.ts:3: [a-z]+ (x)' },
        ],
      },
    },
  ],
  ['relais', { subtype: 'state', state: 'idle', note: 'Bluebird' }],
  ['agent', { type: 'result', subtype: 'success', is_error: false, result: 'done' }],
];

const codexStream: [source: 'agent' | 'host', line: unknown][] = [
  [
    'host',
    { method: 'turn/start', params: { input: [{ type: 'text', text: 'Déploie le serveur' }] } },
  ],
  [
    'agent',
    { method: 'item/started', params: { item: { type: 'agentMessage', id: 'i1', text: '' } } },
  ],
  ['agent', { method: 'item/agentMessage/delta', params: { itemId: 'i1', delta: 'Je déploie' } }],
  [
    'agent',
    {
      method: 'item/completed',
      params: { item: { type: 'agentMessage', id: 'i1', text: 'Je déploie maintenant' } },
    },
  ],
  [
    'agent',
    {
      method: 'item/started',
      params: {
        item: { type: 'commandExecution', id: 'c1', command: "/bin/bash -lc 'kubectl apply'" },
      },
    },
  ],
  [
    'agent',
    {
      method: 'item/completed',
      params: {
        item: {
          type: 'commandExecution',
          id: 'c1',
          command: "/bin/bash -lc 'kubectl apply'",
          status: 'completed',
          aggregatedOutput: 'deployment.apps/web configured',
        },
      },
    },
  ],
  [
    'agent',
    {
      timestamp: '2026-01-01T00:00:00Z',
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Rollout reply: zephyr' }],
      },
    },
  ],
];

describe('search in a conversation', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  let claude: string;
  let codex: string;
  const search = (id: string, query: string) =>
    daemon.call<SearchPage>('GET', `/api/sessions/${id}/search?${query}`);
  const seqs = async (id: string, q: string): Promise<number[]> => {
    const answer = await search(id, `q=${encodeURIComponent(q)}&after=0`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.items.map((hit) => hit.seq);
  };

  before(async () => {
    daemon = await startTestDaemon();
    claude = insertSessionRow(daemon.relais.db, { agent: 'claude' });
    codex = insertSessionRow(daemon.relais.db, { agent: 'codex' });
    for (const [source, line] of claudeStream)
      daemon.relais.events.append(claude, source, JSON.stringify(line));
    for (const [source, line] of codexStream)
      daemon.relais.events.append(codex, source, JSON.stringify(line));
    daemon.relais.events.flush();
  });
  after(async () => {
    await daemon.close();
  });

  it("finds Claude's prompt, thinking, text, tool input and output, whatever the case or form", async () => {
    assert.deepEqual(await seqs(claude, 'éclair'), [2]);
    assert.deepEqual(await seqs(claude, 'E\u0301CLAIR'), [2]);
    assert.deepEqual(await seqs(claude, 'STRASSE'), [3]);
    assert.deepEqual(await seqs(claude, 'quoted" words'), [3]);
    assert.deepEqual(await seqs(claude, 'C:\\dir'), [3]);
    assert.deepEqual(await seqs(claude, 'find the rate'), [3]);
    assert.deepEqual(await seqs(claude, 'bash'), [3]);
    assert.deepEqual(await seqs(claude, 'src/a.ts'), [4]);
  });

  it('never matches what the line holds but no row shows: keys, escapes, ids, JSON', async () => {
    for (const q of [
      '"type"',
      'type',
      'tool_use',
      'toolu_1',
      'msg_1',
      '\\n',
      '\\"',
      '{',
      'subtype',
      'Bluebird',
      'done',
    ])
      assert.deepEqual(await seqs(claude, q), [], q);
  });

  it('takes hostile text literally: pattern characters, SQL wildcards, quotes, NUL', async () => {
    assert.deepEqual(await seqs(claude, '50%_x'), [3]);
    assert.deepEqual(await seqs(claude, '[a-z]+ (x)'), [4]);
    assert.deepEqual(await seqs(claude, '%'), [3]);
    assert.deepEqual(await seqs(claude, '_'), [3]);
    assert.deepEqual(await seqs(claude, '.*'), []);
    assert.deepEqual(await seqs(claude, "'"), [3]);
    assert.deepEqual(await seqs(claude, 'rate\u0000'), []);
  });

  it('refuses an empty, blank or too long text, a bad cursor, and an unknown session', async () => {
    for (const query of [
      'q=',
      'q=%20%20',
      `q=${'a'.repeat(201)}`,
      `q=${'x'.repeat(10_000)}`,
      'q=a&after=-1',
      'q=a&before=0',
      'q=a&after=x',
      'q=a&after=1&before=5',
      'q=a&limit=0',
      'q=a&limit=1000',
      'q=a&q=b',
      'q=a&regex=1',
      'after=1',
    ]) {
      const answer = await search(claude, query);
      assert.equal(answer.status, 400, query);
      assert.equal(
        (answer.body as unknown as { error_code: string }).error_code,
        'invalid_request',
      );
    }
    assert.equal((await search('ses_nope', 'q=a')).status, 404);
  });

  it('gives a short snippet with the offsets of the hit, whitespace as spaces', async () => {
    const { body } = await search(claude, 'q=WORDS&after=0');
    const [hit] = body.items;
    assert.equal(hit!.snippet, 'Looking at "quoted" words and C:\\dir paths');
    assert.equal(hit!.snippet.slice(hit!.hit_start, hit!.hit_end), 'words');
    const long = insertSessionRow(daemon.relais.db);
    const text = `${'α'.repeat(300)}NEEDLE${'🙂'.repeat(300)}`;
    daemon.relais.events.append(
      long,
      'host',
      JSON.stringify({ type: 'user', message: { content: text } }),
    );
    const { body: far } = await search(long, 'q=needle');
    const snippet = far.items[0]!;
    assert.ok(snippet.snippet.length <= 160);
    assert.equal(snippet.snippet.slice(snippet.hit_start, snippet.hit_end), 'NEEDLE');
    assert.ok(!/[\ud800-\udbff]$/.test(snippet.snippet), 'no half emoji at the end');
  });

  it("finds Codex's prompt, final reply once, command and output, and a rollout's reply", async () => {
    // Accents count no more than case, as in a browser's find.
    assert.deepEqual(await seqs(codex, 'DEPLOIE'), [1, 4]);
    assert.deepEqual(await seqs(codex, 'déploie'), [1, 4]);
    assert.deepEqual(await seqs(codex, 'kubectl apply'), [5]);
    assert.deepEqual(await seqs(codex, 'configured'), [6]);
    assert.deepEqual(await seqs(codex, 'zephyr'), [7]);
    assert.deepEqual(await seqs(codex, 'commandExecution'), []);
  });

  it('goes backwards from the newest, or before a seq, nearest first; stops at the limit', async () => {
    const newest = await search(codex, 'q=d%C3%A9ploie');
    assert.deepEqual(
      newest.body.items.map((hit) => hit.seq),
      [4, 1],
    );
    const one = await search(codex, 'q=d%C3%A9ploie&before=7&limit=1');
    assert.deepEqual(
      one.body.items.map((hit) => hit.seq),
      [4],
    );
    assert.equal(one.body.more, true);
    const rest = await search(codex, `q=d%C3%A9ploie&before=${one.body.scanned_to}`);
    assert.deepEqual(
      rest.body.items.map((hit) => hit.seq),
      [1],
    );
    assert.equal(rest.body.more, false);
  });

  it("reads an imported Claude transcript's lines: each prompt once, never its ids or bookkeeping", async () => {
    const imported = insertSessionRow(daemon.relais.db);
    const lines = claudeLines({
      sessionId: 'abcdef12-0000-4000-8000-000000000000',
      cwd: '/w',
      startMs: 0,
      turns: 3,
      resultBytes: 10,
    });
    for (const line of lines) daemon.relais.events.append(imported, 'agent', line);
    daemon.relais.events.flush();
    const prompt = lines.findIndex((line) => line.includes('"content":"Turn 1: look'));
    assert.deepEqual(await seqs(imported, 'turn 1:'), [prompt + 1]);
    for (const q of ['abcdef12', 'parentUuid', 'msg_', 'last-prompt', 'external', '2.1.332'])
      assert.deepEqual(await seqs(imported, q), [], q);
    assert.equal((await seqs(imported, 'Looking (step 0)')).length, 3);
  });

  it("reads an imported Codex rollout's lines: prompts, calls, replies, never its bookkeeping", async () => {
    const rollout = insertSessionRow(daemon.relais.db, { agent: 'codex' });
    const lines = codexLines({ threadId: 'th-9f9f9f9f', cwd: '/w', startMs: 0, turns: 2 });
    for (const line of lines) daemon.relais.events.append(rollout, 'agent', line);
    daemon.relais.events.flush();
    const prompt = lines.findIndex((line) => line.includes('Codex turn 1: run'));
    assert.deepEqual(await seqs(rollout, 'CODEX TURN 1'), [prompt + 1]);
    assert.equal((await seqs(rollout, 'npm test')).length, 2);
    assert.equal((await seqs(rollout, 'all tests pass')).length, 2);
    for (const q of [
      'th-9f9f',
      'call_1',
      'token_count',
      'gpt-5.5',
      'codex_cli_rs',
      'function_call',
    ])
      assert.deepEqual(await seqs(rollout, q), [], q);
  });

  it('searches a compressed conversation as a live one', async () => {
    const archived = insertSessionRow(daemon.relais.db);
    for (const [source, line] of claudeStream)
      daemon.relais.events.append(archived, source, JSON.stringify(line));
    daemon.relais.events.flush();
    daemon.relais.events.archive.compress(archived);
    assert.deepEqual(await seqs(archived, 'straße'), [3]);
  });

  it('scans a huge conversation in bounded steps, each answer saying where to go on', async () => {
    const huge = insertSessionRow(daemon.relais.db);
    const total = SCAN_EVENTS * 3 + 17;
    const prompt = (text: string) => JSON.stringify({ type: 'user', message: { content: text } });
    daemon.relais.events.append(huge, 'host', prompt('the only quetzal here'));
    for (let i = 2; i <= total; i++)
      daemon.relais.events.append(huge, 'host', prompt(`filler ${i} ${'x'.repeat(200)}`));
    daemon.relais.events.flush();
    let cursor = '';
    const steps: SearchPage[] = [];
    for (;;) {
      const answer = await search(huge, `q=quetzal${cursor}`);
      steps.push(answer.body);
      // Each answer is a bounded step (its time is the bench's figure, not a check here).
      assert.ok(answer.body.scanned <= SCAN_EVENTS);
      if (!answer.body.more) break;
      cursor = `&before=${answer.body.scanned_to}`;
    }
    assert.equal(steps.length, 4);
    assert.deepEqual(
      steps.flatMap((step) => step.items.map((hit) => hit.seq)),
      [1],
    );
    assert.equal(steps.at(-1)!.scanned_to, 1);
  });
});
