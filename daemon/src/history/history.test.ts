import assert from 'node:assert/strict';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ImportReport, Session, SessionEvent } from '../../../contract/api.js';
import { allEvents } from '../testing/all-events.js';
import { claudeHistorySetup, type ClaudeHistorySetup } from '../testing/claude-history.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import {
  claudeLines,
  codexLines,
  resumedClaudeLines,
  type ClaudeConversation,
} from '../testing/transcripts.js';

const A = 'aaaaaaaa-1111-4111-8111-111111111111';
const B = 'bbbbbbbb-2222-4222-8222-222222222222';
const R = 'cccccccc-3333-4333-8333-333333333333';
const T0 = Date.parse('2026-06-01T09:00:00.000Z');

const conversation = (sessionId: string, turns: number, startMs = T0): ClaudeConversation => ({
  sessionId,
  cwd: '/home/me/project',
  startMs,
  turns,
  resultBytes: 300,
});
const text = (lines: string[]): string => lines.map((line) => `${line}\n`).join('');

async function rescan(setup: ClaudeHistorySetup): Promise<ImportReport> {
  const answer = await setup.daemon.call<ImportReport>(
    'POST',
    `/api/subscriptions/${setup.subscription}/import`,
  );
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
}

async function imported(daemon: TestDaemon, subscription: string): Promise<Session[]> {
  const answer = await daemon.call<{ items: Session[] }>(
    'GET',
    `/api/sessions?origin=imported&subscription=${subscription}`,
  );
  assert.equal(answer.status, 200, answer.text);
  return answer.body.items;
}

function events(daemon: TestDaemon, sessionId: string): Promise<SessionEvent[]> {
  return allEvents(daemon, sessionId);
}

async function importedTurns(
  daemon: TestDaemon,
  subscription: string,
): Promise<Record<string, any>[]> {
  const answer = await daemon.call<{ items: Record<string, any>[] }>(
    'GET',
    `/api/analytics/turns?app=imported&subscription=${subscription}&limit=500`,
  );
  assert.equal(answer.status, 200, answer.text);
  return answer.body.items;
}

describe('history import: Claude transcripts', () => {
  let setup: ClaudeHistorySetup;
  before(async () => {
    setup = await claudeHistorySetup();
  });
  after(async () => {
    await setup.daemon.close();
    rmSync(setup.configDir, { recursive: true, force: true });
  });

  test('first import: one session per conversation, lines verbatim, each response counted once', async () => {
    const a = claudeLines(conversation(A, 3));
    writeFileSync(join(setup.project, `${A}.jsonl`), text(a));
    // A subagent's transcript belongs to its parent.
    const sub = join(setup.project, A, 'subagents');
    mkdirSync(sub, { recursive: true });
    const subLines = claudeLines({ ...conversation(A, 1), idPrefix: 'subagent1' }).map((l) =>
      l.replace('"isSidechain":false', '"isSidechain":true'),
    );
    writeFileSync(join(sub, 'agent-x1.jsonl'), text(subLines));
    // A resumed copy repeats A's responses: they count once.
    writeFileSync(
      join(setup.project, `${R}.jsonl`),
      text(resumedClaudeLines(conversation(A, 3), R, 1)),
    );

    const report = await rescan(setup);
    assert.equal(report.files, 3);
    assert.equal(report.files_read, 3);
    assert.equal(report.malformed, 0);
    assert.deepEqual(report.errors, []);
    // A: 3 turns × 2 responses; the subagent: 2; R: its own 1 turn × 2 (the copied 6 are A's).
    assert.equal(report.turns, 6 + 2 + 2);
    assert.equal(report.sessions, 2);

    const sessions = await imported(setup.daemon, setup.subscription);
    assert.equal(sessions.length, 2);
    const sessionA = sessions.find((s) => s.agent_session_id === A)!;
    assert.equal(sessionA.origin, 'imported');
    assert.equal(sessionA.state, 'ended');
    assert.equal(sessionA.title, 'Turn 0: look at the tests in src/ and fix the failing one');
    assert.equal(sessionA.cwd, '/home/me/project');
    assert.equal(sessionA.model, 'claude-sonnet-4-5');
    assert.equal(sessionA.created_at, new Date(T0 + 5000).toISOString());
    assert.ok(sessionA.transcript_bytes! > 0);
    assert.equal(sessionA.last_seq, a.length + subLines.length);

    const stored = await events(setup.daemon, sessionA.id);
    assert.deepEqual(
      stored.map((e) => e.seq),
      stored.map((_, i) => i + 1),
    );
    assert.deepEqual(stored[0]!.data, JSON.parse(a[0]!));
    assert.ok(stored.every((e) => e.source === 'agent'));
    // The outline's turns are the person's prompts (not tool results, not the subagent's).
    const outline = (await setup.daemon.call('GET', `/api/sessions/${sessionA.id}/outline`)).body;
    assert.deepEqual(
      outline.turns.map((t: { text: string }) => t.text),
      [0, 1, 2].map((n) => `Turn ${n}: look at the tests in src/ and fix the failing one`),
    );

    const turns = await importedTurns(setup.daemon, setup.subscription);
    assert.equal(turns.length, 10);
    const first = turns.find((t) => t.session_id === sessionA.id && t.input_tokens === 1200)!;
    assert.equal(first.model, 'claude-sonnet-4-5');
    assert.equal(first.app, 'imported');
    assert.equal(first.model_calls, 1);
    assert.equal(first.cache_read_tokens, 9000);
    assert.ok(first.cost_estimate_usd > 0, 'priced from the table');

    // Relais' own sessions are not in the imported list, and the list can ask for them alone.
    const relais = await setup.daemon.call('GET', '/api/sessions?origin=relais');
    assert.ok(relais.body.items.every((s: Session) => s.origin === 'relais'));
    const bad = await setup.daemon.call('GET', '/api/sessions?origin=elsewhere');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error_code, 'invalid_request');
  });

  test('an unchanged tree is not read again', async () => {
    const report = await rescan(setup);
    assert.equal(report.files, 3);
    assert.equal(report.files_read, 0);
    assert.equal(report.bytes, 0);
    assert.equal(report.lines, 0);
    assert.equal(report.turns, 0);
  });

  test('a grown file is read from where it stopped; a partial last line waits for its newline', async () => {
    const path = join(setup.project, `${A}.jsonl`);
    const sessionA = (await imported(setup.daemon, setup.subscription)).find(
      (s) => s.agent_session_id === A,
    )!;
    const more = claudeLines({ ...conversation(A, 1, T0 + 3_600_000), idPrefix: 'later' });
    const before = sessionA.last_seq;
    appendFileSync(path, `${more[0]}\n${more[1]!.slice(0, 40)}`);
    let report = await rescan(setup);
    assert.equal(report.files_read, 1);
    assert.equal(report.lines, 1);
    assert.equal(report.bytes, Buffer.byteLength(`${more[0]}\n`));
    appendFileSync(path, `${more[1]!.slice(40)}\n${text(more.slice(2))}`);
    report = await rescan(setup);
    assert.equal(report.lines, more.length - 1);
    assert.equal(report.turns, 2);
    const stored = await events(setup.daemon, sessionA.id);
    const added = stored.filter((e) => e.seq > before);
    assert.deepEqual(
      added.map((e) => e.data),
      more.map((line) => JSON.parse(line)),
    );
  });

  test('a malformed line is kept raw and counted; the lines after it are kept', async () => {
    const path = join(setup.project, `${B}.jsonl`);
    const lines = claudeLines(conversation(B, 1, T0 + 86_400_000));
    writeFileSync(path, `${lines[0]}\n{"type":"user", broken\n${text(lines.slice(1))}`);
    const report = await rescan(setup);
    assert.equal(report.malformed, 1);
    assert.equal(report.lines, lines.length + 1);
    const session = (await imported(setup.daemon, setup.subscription)).find(
      (s) => s.agent_session_id === B,
    )!;
    const stored = await events(setup.daemon, session.id);
    assert.deepEqual(stored[1]!.data, {
      type: 'relais',
      subtype: 'import_malformed',
      path,
      offset: Buffer.byteLength(`${lines[0]}\n`),
      text: '{"type":"user", broken',
    });
    assert.deepEqual(stored[2]!.data, JSON.parse(lines[1]!));
  });

  test('a truncated file and a replaced file are read again, without counting their responses twice', async () => {
    const path = join(setup.project, `${B}.jsonl`);
    const session = (await imported(setup.daemon, setup.subscription)).find(
      (s) => s.agent_session_id === B,
    )!;
    const lines = claudeLines(conversation(B, 1, T0 + 86_400_000));
    truncateSync(path, Buffer.byteLength(`${lines[0]}\n`));
    let report = await rescan(setup);
    assert.equal(report.files_read, 1);
    assert.equal(report.lines, 1);
    assert.equal(report.turns, 0);
    let stored = await events(setup.daemon, session.id);
    const reset = stored.find((e) => (e.data as any).subtype === 'transcript_reset')!;
    assert.equal((reset.data as any).reason, 'truncated');

    const replacement = `${path}.tmp`;
    writeFileSync(replacement, text(lines));
    renameSync(replacement, path);
    report = await rescan(setup);
    assert.equal(report.lines, lines.length);
    assert.equal(report.turns, 0, 'the same responses, already counted');
    stored = await events(setup.daemon, session.id);
    const resets = stored.filter((e) => (e.data as any).subtype === 'transcript_reset');
    assert.deepEqual(
      resets.map((e) => (e.data as any).reason),
      ['truncated', 'replaced'],
    );
    assert.deepEqual(
      stored.map((e) => e.seq),
      stored.map((_, i) => i + 1),
      'seq stays gap-free',
    );
  });

  test('the same response on several lines counts once, with its largest figures and every tool', async () => {
    const id = 'dddddddd-4444-4444-8444-444444444444';
    const base = {
      type: 'assistant',
      requestId: 'req_dup',
      sessionId: id,
      cwd: '/w',
      timestamp: new Date(T0).toISOString(),
    };
    const line = (output: number, content: unknown[]) =>
      JSON.stringify({
        ...base,
        message: {
          id: 'msg_dup',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content,
          usage: {
            input_tokens: 10,
            output_tokens: output,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
          },
        },
      });
    writeFileSync(
      join(setup.project, `${id}.jsonl`),
      text([
        line(1, [{ type: 'text', text: 'a' }]),
        line(40, [{ type: 'tool_use', id: 'toolu_1', name: 'Grep', input: {} }]),
        line(40, [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: {} }]),
      ]),
    );
    const report = await rescan(setup);
    assert.equal(report.turns, 1);
    const session = (await imported(setup.daemon, setup.subscription)).find(
      (s) => s.agent_session_id === id,
    )!;
    const turns = (await importedTurns(setup.daemon, setup.subscription)).filter(
      (t) => t.session_id === session.id,
    );
    assert.equal(turns.length, 1);
    assert.equal(turns[0]!.output_tokens, 40);
    assert.equal(turns[0]!.tool_calls, 2);
  });

  test('a file that cannot be read is reported with its path and error', async () => {
    const path = join(setup.project, 'not-a-file.jsonl');
    mkdirSync(path);
    // A FIFO named like a transcript: opening it for reading must not wait for a writer.
    const fifo = join(setup.project, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const report = await rescan(setup);
    const error = report.errors.find((e) => e.path === path);
    assert.ok(error, JSON.stringify(report.errors));
    assert.match(error.error, /directory/i);
    assert.match(report.errors.find((e) => e.path === fifo)?.error ?? '', /FIFO/);
    rmSync(path, { recursive: true });
    rmSync(fifo);
  });

  test('a new conversation waits while a Relais session of the subscription is starting (it may be its own)', async () => {
    const id = '99999999-7777-4777-8777-777777777777';
    const db = setup.daemon.relais.db;
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO sessions (id, subscription_id, agent, model, cwd, permission_mode, app, state, created_at, deadline_at, max_deadline_at)
       VALUES ('ses_starting', ?, 'claude', 'm', '/w', 'write', 'tests', 'starting', ?, ?, ?)`,
    ).run(setup.subscription, now, now, now);
    writeFileSync(join(setup.project, `${id}.jsonl`), text(claudeLines(conversation(id, 1))));
    let report = await rescan(setup);
    assert.equal(report.sessions, 0);
    assert.equal(report.lines, 0);
    // Its agent said who it is, and it is another conversation: this one is imported now.
    db.prepare(
      "UPDATE sessions SET agent_session_id = 'someone-else' WHERE id = 'ses_starting'",
    ).run();
    report = await rescan(setup);
    assert.equal(report.sessions, 1);
    db.prepare("UPDATE sessions SET state = 'ended' WHERE id = 'ses_starting'").run();
  });

  test('an unknown subscription is a 404', async () => {
    const answer = await setup.daemon.call('POST', '/api/subscriptions/sub_nope/import');
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error_code, 'not_found');
  });

  test('a file grown by several chunks is read from where it stopped, then only grows', async () => {
    const path = join(setup.project, `${A}.jsonl`);
    const session = (await imported(setup.daemon, setup.subscription)).find(
      (s) => s.agent_session_id === A,
    )!;
    // Tool results of 700 kB: the read spans several chunks, and its cursor's tail hash is
    // taken from the last one.
    const big = claudeLines({
      ...conversation(A, 2, T0 + 7_200_000),
      idPrefix: 'big',
      resultBytes: 700_000,
    });
    appendFileSync(path, text(big));
    let report = await rescan(setup);
    assert.equal(report.lines, big.length);
    assert.ok(report.bytes > 1_400_000);
    const one = claudeLines({ ...conversation(A, 1, T0 + 9_000_000), idPrefix: 'after-big' });
    appendFileSync(path, text(one));
    report = await rescan(setup);
    assert.equal(report.lines, one.length, 'read from its offset, not from its start');
    const stored = await events(setup.daemon, session.id);
    assert.equal(stored.filter((e) => (e.data as any).subtype === 'transcript_reset').length, 0);
    assert.deepEqual(
      stored.slice(-one.length).map((e) => e.data),
      one.map((line) => JSON.parse(line)),
    );
  });

  test('a file rewritten in place before its read offset is read again from its start', async () => {
    const path = join(setup.project, `${A}.jsonl`);
    const session = (await imported(setup.daemon, setup.subscription)).find(
      (s) => s.agent_session_id === A,
    )!;
    const content = readFileSync(path, 'utf8');
    // Same inode, same size: a letter near the end changes (the cursor hashes the last bytes).
    let at = content.length - 40;
    while (!/[a-z]/.test(content[at]!)) at--;
    const other = content[at] === 'a' ? 'b' : 'a';
    writeFileSync(path, `${content.slice(0, at)}${other}${content.slice(at + 1)}`);
    // The clock the file system stamps with is coarse: make sure the rewrite is seen as a change.
    const later = new Date(Date.now() + 10_000);
    utimesSync(path, later, later);
    const report = await rescan(setup);
    assert.equal(report.lines, content.split('\n').length - 1);
    const stored = await events(setup.daemon, session.id);
    const resets = stored.filter((e) => (e.data as any).subtype === 'transcript_reset');
    assert.deepEqual(
      resets.map((e) => (e.data as any).reason),
      ['rewritten'],
    );
  });
});

describe('history import: Codex rollouts', () => {
  test('a rollout becomes a session; each response is counted with its model and tools', async () => {
    const daemon = await startTestDaemon({ config: { historyWatch: false } });
    const home = mkdtempSync(join(tmpdir(), 'relais-codex-home-'));
    try {
      const thread = '01a22f72-a128-7311-a06e-cf91bb94b0c5';
      const day = join(home, 'sessions', '2026', '06', '01');
      mkdirSync(day, { recursive: true });
      const lines = codexLines({ threadId: thread, cwd: '/home/me/api', startMs: T0, turns: 2 });
      writeFileSync(join(day, `rollout-2026-06-01T09-00-00-${thread}.jsonl`), text(lines));
      writeFileSync(join(day, 'notes.jsonl'), '{}\n'); // not a rollout
      const created = await daemon.call('POST', '/api/subscriptions', {
        name: 'Codex work',
        agent: 'codex',
        config_dir: home,
      });
      const report = (
        await daemon.call<ImportReport>('POST', `/api/subscriptions/${created.body.id}/import`)
      ).body;
      assert.equal(report.files, 1);
      assert.equal(report.lines, lines.length);
      assert.equal(report.turns, 4);
      const [session] = await imported(daemon, created.body.id);
      assert.equal(session!.agent, 'codex');
      assert.equal(session!.agent_session_id, thread);
      assert.equal(session!.model, 'gpt-5.5');
      assert.equal(session!.cwd, '/home/me/api');
      assert.equal(session!.title, 'Codex turn 0: run the tests');
      const turns = await importedTurns(daemon, created.body.id);
      assert.equal(turns.length, 4);
      assert.ok(
        turns.every(
          (t) => t.model === 'gpt-5.5' && t.input_tokens === 600 && t.cache_read_tokens === 400,
        ),
      );
      assert.equal(turns.filter((t) => t.tool_calls === 1).length, 2);
    } finally {
      await daemon.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
