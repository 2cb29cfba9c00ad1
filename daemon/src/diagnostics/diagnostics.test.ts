import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Diagnostics, LogEntry } from '../../../contract/operations.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('diagnostics and logs', { timeout: 90_000 }, () => {
  let daemon: TestDaemon;
  let sessionId: string;
  before(async () => {
    daemon = await startTestDaemon({ config: { logLevel: 'info' } });
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
    });
    await s.waitState('idle');
    sessionId = s.id;
  });
  after(async () => {
    await daemon.close();
  });

  it('shows engine, port, pid, uptime, active agents, sessions by state and database size', async () => {
    const d = (await daemon.call<Diagnostics>('GET', '/api/diagnostics')).body;
    assert.equal(d.node_version, process.version);
    assert.match(d.sqlite_version, /^3\./);
    assert.equal(d.claude_code_version, '2.1.332');
    assert.equal(d.port, daemon.relais.port());
    assert.equal(d.pid, process.pid);
    assert.equal(d.active_agents.count, 1);
    assert.equal(d.active_agents.sessions[0]!.session_id, sessionId);
    assert.ok(d.active_agents.sessions[0]!.pid! > 0);
    assert.equal(d.sessions_by_state['idle'], 1);
    assert.ok(d.database.database_bytes > 0);
  });

  it('keeps the logs, filtered by level, session and text, with paging; never the key', async () => {
    const bySession = (
      await daemon.call<{ items: LogEntry[] }>('GET', `/api/logs?session=${sessionId}`)
    ).body.items;
    assert.ok(bySession.some((l) => l.msg === 'session launched'));
    assert.ok(bySession.every((l) => l.session_id === sessionId));
    await daemon.call('GET', '/api/sessions', undefined, { authorization: 'Bearer not-the-key' });
    const text = (await daemon.call<{ items: LogEntry[] }>('GET', '/api/logs?q=session%20launched'))
      .body.items;
    assert.ok(
      text.length >= 1 && text.every((l) => JSON.stringify(l.data).includes('session launched')),
    );
    const warnings = (await daemon.call<{ items: LogEntry[] }>('GET', '/api/logs?level=warn')).body
      .items;
    assert.ok(warnings.every((l) => ['warn', 'error', 'fatal'].includes(l.level)));
    const page = (
      await daemon.call<{ items: LogEntry[]; next_cursor: string | null }>(
        'GET',
        '/api/logs?limit=2',
      )
    ).body;
    assert.equal(page.items.length, 2);
    const next = (
      await daemon.call<{ items: LogEntry[] }>(
        'GET',
        `/api/logs?limit=2&before=${page.next_cursor}`,
      )
    ).body;
    assert.ok(next.items[0]!.id < page.items[1]!.id);
    const all = (await daemon.call('GET', '/api/logs?limit=500')).text;
    assert.ok(!all.includes(daemon.key));
    assert.equal((await daemon.call('GET', '/api/logs?level=loud')).status, 400);
  });

  it('tails the logs live', async () => {
    const controller = new AbortController();
    const response = await fetch(`${daemon.base}/api/logs/stream?q=tail-marker`, {
      headers: { authorization: `Bearer ${daemon.key}` },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    daemon.relais.app.log.info({ marker: 'tail-marker' }, 'tail-marker line');
    const decoder = new TextDecoder();
    let text = '';
    const line = await waitFor('the live log line', async () => {
      text += decoder.decode((await reader.read()).value, { stream: true });
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; log: LogEntry })
        .find((l) => l.type === 'log' && l.log.msg === 'tail-marker line');
    });
    controller.abort();
    assert.equal(line.type, 'log');
    assert.equal(line.log.msg, 'tail-marker line');
  });
});
